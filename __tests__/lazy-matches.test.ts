// A file's matches are built in JS when first read when it has many (most of
// an output-heavy result's decode). The object must behave as the eagerly
// built one everywhere a caller can look: its JSON, its keys and their order,
// equality, copies, util.inspect, assignment, frozen objects.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { smartFileQuery, smartFileQuerySync } from '../index.js';
import { makeTree } from './helpers/tree';

const many = Array.from({ length: 40 }, (_, i) => `line ${i} has hit number ${i}`).join('\n');
const dir = makeTree({
  'a-few.txt': 'one hit\nno\ntwo hit hit\n',
  'b-many.txt': `${many}\n`,
  'c-many.txt': `${many}\r\nlast hit`,
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const query = { cwd: dir, regex: 'hit', contextLines: 1 };
const CLI = join(__dirname, '..', 'bin', 'smart-file-query.mjs');

function descriptor(o: object, key: string) {
  return Object.getOwnPropertyDescriptor(o, key)!;
}

describe('lazily built matches', () => {
  it('are an accessor until read, then a plain array, the same one on every read', () => {
    const r = smartFileQuerySync(query);
    const [few, big] = r.results;
    expect(few.path).toBe('a-few.txt');
    expect(descriptor(few, 'matches')).toHaveProperty('value');
    expect(typeof descriptor(big, 'matches').get).toBe('function');
    expect(descriptor(big, 'matches').enumerable).toBe(true);
    const first = big.matches;
    expect(first).toHaveLength(40);
    expect(first[3]).toEqual({
      lineNumber: 4,
      column: 12,
      match: 'hit',
      context: { before: ['line 2 has hit number 2'], line: 'line 3 has hit number 3', after: ['line 4 has hit number 4'] },
    });
    expect(descriptor(big, 'matches')).toEqual({ value: first, writable: true, enumerable: true, configurable: true });
    expect(big.matches).toBe(first);
  });

  it('give the JSON the CLI prints, byte for byte, with keys in the same order', () => {
    const r = smartFileQuerySync(query);
    expect(Object.keys(r.results[1])).toEqual(['path', 'size', 'matchCount', 'matches', 'truncated']);
    const cli = spawnSync(process.execPath, [CLI, '--regex', 'hit', '--contextLines', '1'], { cwd: dir, encoding: 'utf8' });
    expect(cli.status).toBe(0);
    expect(JSON.stringify(r)).toBe(cli.stdout);
  });

  it('compare equal to, and copy as, the eagerly built value (sync and async alike)', async () => {
    const lazy = await smartFileQuery(query);
    const eager = JSON.parse(JSON.stringify(smartFileQuerySync(query)));
    expect(structuredClone(lazy)).toStrictEqual(eager);
    expect({ ...lazy.results[2] }).toStrictEqual(eager.results[2]);
    expect(lazy).toStrictEqual(eager);
    expect(lazy.results[2].matches[40]).toEqual(eager.results[2].matches[40]);
  });

  it('show as arrays in util.inspect, not as getters', () => {
    const r = smartFileQuerySync(query);
    const shown = inspect(r.results[1], { depth: 1 });
    expect(shown).not.toMatch(/Getter|Setter/);
    expect(shown).toMatch(/matches: \[/);
  });

  it('take an assignment made before they are read, and work on a frozen object', () => {
    const r = smartFileQuerySync(query);
    r.results[1].matches = [];
    expect(r.results[1].matches).toEqual([]);
    expect(JSON.parse(JSON.stringify(r)).results[1].matches).toEqual([]);
    const frozen = Object.freeze(r.results[2]);
    const m = frozen.matches;
    expect(m).toHaveLength(41);
    expect(frozen.matches).toBe(m);
  });
});
