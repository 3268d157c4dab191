// A host that calls the synchronous API in a loop without ever yielding to
// the event loop must not accumulate the native memory of every result: the
// arrays a result crosses in are owned by V8 and freed with its garbage
// (the finalizers of external buffers would wait for the event loop).
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { smartFileQuerySync } from '../index.js';
import { makeTree } from './helpers/tree';

const LINES = 30_000;
const dir = makeTree({ 'big.txt': 'match here and there\n'.repeat(LINES) });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('synchronous calls in a loop', () => {
  it('keep their memory bounded without yielding to the event loop', () => {
    const call = () => smartFileQuerySync({ cwd: dir, regex: 'match', maxMatches: 100_000, contextLines: 0, maxFileSizeKB: 10_000 });
    expect(call().aggregate.totalMatches).toBe(LINES);
    const before = process.memoryUsage().rss;
    // 4.5 million matches in all: about 80 bytes each (360 MB) stayed until the
    // event loop ran when the arrays were external buffers.
    for (let i = 0; i < 150; i++) call();
    const grown = (process.memoryUsage().rss - before) / 1048576;
    expect(grown).toBeLessThan(200);
  });
});
