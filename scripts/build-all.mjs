#!/usr/bin/env node
// `npm run build:all [-- --targets linux-arm64-gnu,darwin-arm64]`: the prebuilt
// binaries of every platform package, cross-built on Linux x86_64, each copied
// into npm/<platform>/. The routes and why they were chosen are in
// ../shared/guides/cross-build.md and the README ("Platforms").
//
// Needs (the script checks and says what is missing):
//   apt:  rustc-web cargo-web rust-web-src llvm-14  (Debian's Rust with std's
//         sources: every target's std is built with -Zbuild-std; rustup here
//         cannot add targets)
//         mingw-w64                                   (win32-x64)
//         musl-tools                                  (linux-x64-musl: its check loads it)
//   PyPI: ziglang cargo-zigbuild                      (installed by this script
//         into .cache/zig-venv when missing)
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS, cargoArtefact, nodeFile, rustTriple } from './platforms.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.cache');
const VENV = join(CACHE, 'zig-venv');
const TOOLS = join(CACHE, 'cross-bin');
const TARGET_DIR = join(ROOT, 'target', 'cross');
const ZIG_PINS = ['ziglang==0.17.1', 'cargo-zigbuild==0.24.1'];
const DEBIAN_CARGO = '/usr/bin/cargo';

function fail(message) {
  console.error(`build:all: ${message}`);
  process.exit(1);
}

function parseTargets(argv) {
  const i = argv.indexOf('--targets');
  if (i < 0) return PLATFORMS;
  const names = (argv[i + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !PLATFORMS.some((p) => p.platform === n));
  if (names.length === 0 || unknown.length > 0) {
    fail(`--targets takes a comma-separated list of ${PLATFORMS.map((p) => p.platform).join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return PLATFORMS.filter((p) => names.includes(p.platform));
}

/** Debian's rustc-web with rust-web-src: the only toolchain here that can build std for other targets. */
function checkToolchain(targets) {
  const missing = [];
  if (!existsSync(DEBIAN_CARGO) || !existsSync('/usr/bin/rustc')) missing.push('rustc-web cargo-web');
  if (!existsSync('/usr/lib/rustlib/src/rust/library')) missing.push('rust-web-src');
  if (!existsSync('/usr/bin/llvm-objcopy-14')) missing.push('llvm-14');
  if (targets.some((p) => p.route === 'mingw') && !existsSync('/usr/bin/x86_64-w64-mingw32-gcc')) missing.push('mingw-w64');
  // Not for building: the artefact checks load the x64 musl binary with musl's loader.
  if (targets.some((p) => p.libc === 'musl' && p.arch === 'x86_64') && !existsSync('/usr/bin/musl-gcc')) missing.push('musl-tools');
  if (missing.length > 0) fail(`missing Debian packages; install them with: apt-get install ${missing.join(' ')}`);
}

/** ziglang and cargo-zigbuild from PyPI, in a venv of our own. */
function ensureZig() {
  const bin = join(VENV, 'bin', 'cargo-zigbuild');
  if (existsSync(bin)) return;
  console.log(`== installing ${ZIG_PINS.join(' ')} into ${VENV}`);
  const python = spawnSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  if (python.status !== 0) fail('python3 -m venv failed (Debian: apt-get install python3-venv)');
  const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '-q', ...ZIG_PINS], { stdio: 'inherit' });
  if (pip.status !== 0) fail(`pip install ${ZIG_PINS.join(' ')} failed`);
}

/** Small tools on PATH: rustc strips through `rust-objcopy`, which Debian's rustc lacks. */
function ensureTools() {
  mkdirSync(TOOLS, { recursive: true });
  const objcopy = join(TOOLS, 'rust-objcopy');
  if (!existsSync(objcopy)) symlinkSync('/usr/bin/llvm-objcopy-14', objcopy);
}

/**
 * napi-build and napi-sys want to link libnode.dll on windows-gnu; N-API is
 * resolved at run time (napi's `dyn-symbols`), so an empty DLL satisfies them.
 */
function stubLibnode() {
  const dir = join(CACHE, 'libnode-stub');
  const dll = join(dir, 'libnode.dll');
  if (existsSync(dll)) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'stub.c'), 'void sfq_libnode_stub(void) {}\n');
  execFileSync('x86_64-w64-mingw32-gcc', ['-shared', '-o', dll, join(dir, 'stub.c')]);
  return dir;
}

function buildEnv(p) {
  const env = {
    ...process.env,
    PATH: [TOOLS, join(VENV, 'bin'), '/usr/bin', '/bin'].join(':'),
    RUSTC_BOOTSTRAP: '1',
    CARGO_TARGET_DIR: TARGET_DIR,
    ...p.env,
  };
  for (const key of ['RUSTUP_TOOLCHAIN', 'RUSTC', 'RUSTDOC', 'RUSTFLAGS', 'CARGO_BUILD_TARGET']) delete env[key];
  const upper = rustTriple(p).toUpperCase().replaceAll('-', '_');
  if (p.libc === 'musl') env[`CARGO_TARGET_${upper}_RUSTFLAGS`] = '-C target-feature=-crt-static';
  // zig's Mach-O linker names the dylib by its build path; name it as it is installed.
  if (p.format === 'macho') env[`CARGO_TARGET_${upper}_RUSTFLAGS`] = `-C link-arg=-Wl,-install_name,@rpath/${nodeFile(p)}`;
  if (p.route === 'mingw') {
    const under = rustTriple(p).replaceAll('-', '_');
    env[`CARGO_TARGET_${upper}_LINKER`] = 'x86_64-w64-mingw32-gcc';
    env[`CC_${under}`] = 'x86_64-w64-mingw32-gcc';
    env[`AR_${under}`] = 'x86_64-w64-mingw32-ar';
    env.LIBNODE_PATH = stubLibnode();
  }
  return env;
}

function build(p) {
  const common = ['--release', '--locked', '--package', 'smart-file-query', '--lib', '-Zbuild-std=std,panic_abort', '--target', p.rust];
  const [cmd, args] = p.route === 'zig' ? [join(VENV, 'bin', 'cargo-zigbuild'), ['zigbuild', ...common]] : [DEBIAN_CARGO, ['build', ...common]];
  console.log(`\n== ${p.platform}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, env: buildEnv(p), stdio: 'inherit' });
  if (r.status !== 0) fail(`${p.platform}: the build failed (${r.error?.message ?? `exit ${r.status}`}); see the output above`);
  const built = join(TARGET_DIR, rustTriple(p), 'release', cargoArtefact(p));
  const dest = join(ROOT, 'npm', p.platform, nodeFile(p));
  rmSync(dest, { force: true });
  copyFileSync(built, dest);
  const size = statSync(dest).size;
  console.log(`== ${p.platform}: npm/${p.platform}/${nodeFile(p)} ${size.toLocaleString('en')} bytes (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return { platform: p.platform, bytes: size };
}

if (process.platform !== 'linux' || process.arch !== 'x64') fail(`cross-builds run on Linux x86_64 (Debian); this is ${process.platform}-${process.arch}`);
const targets = parseTargets(process.argv.slice(2));
checkToolchain(targets);
ensureZig();
ensureTools();
const built = targets.map(build);
console.log('\nbuilt:');
for (const b of built) console.log(`  ${b.platform.padEnd(18)} ${b.bytes.toLocaleString('en').padStart(12)} bytes`);
