#!/usr/bin/env node
// `npm run test:seeds`: the randomized differential suites with many seeds
// (CI runs each with its fixed seed; this is the separate, longer command).
//   - sfq-regex against V8 (generated patterns and texts)
//   - sfq-fast's fast path against V8 (property test)
//   - sfq-walk against `git ls-files` and picomatch
//   - the whole addon against the pure-Node seed-000 implementation
// and the exhaustive Unicode-property table check of sfq-regex.
// Usage: node scripts/test-seeds.mjs [N]   (N: seeds per suite, default 200)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv[2] ?? 200);
const steps = [
  ['sfq-regex vs V8', 'cargo', ['test', '-p', 'sfq-regex', '--release', '--test', 'differential'], { SFQ_REGEX_SEEDS: `1..${n}` }],
  ['sfq-regex property tables vs V8', 'cargo', ['test', '-p', 'sfq-regex', '--release', '--test', 'tables', '--', '--include-ignored'], {}],
  ['sfq-fast vs V8', 'cargo', ['test', '-p', 'sfq-fast', '--release', '--test', 'v8_property'], { SFQ_FAST_SEEDS: `1..${n}` }],
  ['sfq-walk vs git and picomatch', 'cargo', ['test', '-p', 'sfq-walk', '--release'], { SFQ_WALK_SEEDS: String(n) }],
  ['addon vs pure-Node seed 000', join(root, 'node_modules/.bin/vitest'), ['run', '__tests__/differential.test.ts'], { SFQ_DIFF_SEEDS: `1..${Math.max(4, Math.floor(n / 5))}` }],
];
for (const [title, cmd, args, env] of steps) {
  console.log(`\n=== ${title}: ${Object.entries(env).map(([k, v]) => `${k}=${v} `).join('')}${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed`);
    process.exit(1);
  }
}
console.log('\n✓ every seed agreed');
