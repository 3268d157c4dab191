#!/usr/bin/env node
// `npm test`: every test, in order.
//  1. cargo test --workspace        the Rust core's unit and differential tests
//     (+ sfq-outline with every grammar feature)
//  2. napi build (release)          the addon the JS tests load (smart-file-query.<platform>.node at the root)
//  3. generated-file drift check    binding.js / binding.d.ts must be committed as built
//  4. tsc --noEmit                  index.d.ts + the typed usage file
//  5. vitest run                    the JS API, the CLI, the differential suites, the package
//                                   as installed, the prebuilt binaries present in npm/
//  6. the arm64 run, when npm/linux-arm64-gnu holds its binary (npm run build:all):
//     a smoke query and the JS suites under qemu (scripts/test-arm64.mjs)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title, cmd, args) {
  console.log(`\n=== ${title}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(1);
  }
}

step('cargo tests', 'cargo', ['test', '--workspace', '--locked']);
// The six outline grammars behind a cargo feature are tested too (golden samples).
step('outline, every language', 'cargo', ['test', '--locked', '-p', 'sfq-outline', '--features', 'all-languages']);
step('build addon', bin('napi'), ['build', '--platform', '--release', '--js', 'binding.js', '--dts', 'binding.d.ts']);
if (existsSync(join(root, '.git'))) {
  step('generated files are committed as built', 'git', ['diff', '--exit-code', '--', 'binding.js', 'binding.d.ts']);
}
step('typecheck', bin('tsc'), ['-p', 'tsconfig.json']);
step('vitest', bin('vitest'), ['run']);
if (existsSync(join(root, 'npm', 'linux-arm64-gnu', 'smart-file-query.linux-arm64-gnu.node'))) {
  step('linux-arm64-gnu under qemu', process.execPath, [join(root, 'scripts', 'test-arm64.mjs')]);
}
console.log('\n✓ all tests passed');
