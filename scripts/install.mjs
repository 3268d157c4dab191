#!/usr/bin/env node
// npm `install` hook: make sure a native binding for this platform loads.
// 1. A prebuilt binary (next to binding.js, or the per-platform npm package) -> nothing to do.
// 2. Otherwise build the addon from the Rust sources shipped in the package:
//    with @napi-rs/cli when it is installed (a git clone: `npm install`), else with plain cargo.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function bindingLoads() {
  if (!existsSync(join(root, 'binding.js'))) return false;
  try {
    require(join(root, 'binding.js'));
    return true;
  } catch {
    return false;
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.error) {
    console.error(`smart-file-query: could not run ${cmd}: ${r.error.message}`);
    return false;
  }
  return r.status === 0;
}

/** The file name the napi loader (binding.js) looks for on this platform. */
function platformSuffix() {
  const { platform, arch } = process;
  if (platform === 'linux') {
    const glibc = process.report?.getReport?.().header?.glibcVersionRuntime;
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  if (platform === 'win32') return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

if (process.env.SMART_FILE_QUERY_SKIP_INSTALL_BUILD !== '1' && !bindingLoads()) {
  console.error('smart-file-query: no prebuilt binary for this platform loads; building from source (needs cargo)…');
  const cli = join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js');
  let ok;
  if (existsSync(cli)) {
    ok = run(process.execPath, [cli, 'build', '--platform', '--release', '--js', 'binding.js', '--dts', 'binding.d.ts']);
  } else {
    ok = run('cargo', ['build', '--release', '--locked']);
    if (ok) {
      const lib = { linux: 'libsmart_file_query.so', darwin: 'libsmart_file_query.dylib', win32: 'smart_file_query.dll' }[process.platform] ?? 'libsmart_file_query.so';
      copyFileSync(join(root, 'target', 'release', lib), join(root, `smart-file-query.${platformSuffix()}.node`));
    }
  }
  if (!ok || !bindingLoads()) {
    console.error('smart-file-query: building the native addon failed. Install Rust (https://rustup.rs) and run `npm rebuild smart-file-query`.');
    process.exit(1);
  }
}
