#!/usr/bin/env node
// npm `install` hook. It never builds on its own: the prebuilt binary comes in the
// platform package (an optional dependency), and building from source is asked for
// explicitly:
//
//   SMART_FILE_QUERY_BUILD_FROM_SOURCE=1 npm rebuild smart-file-query
//   (or `npm rebuild smart-file-query --build-from-source`, which npm 11 still
//   passes to the script as npm_config_build_from_source, with a warning)
//
// which compiles the Rust sources shipped in the package with cargo and puts
// `smart-file-query.<platform>.node` next to binding.js, where the loader looks first.
// Without the request, the hook only warns when no binary loads.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { BUILD_FROM_SOURCE, loadFailureMessage, platformName } = require('../lib/load.js');

const truthy = (v) => v !== undefined && v !== '' && v !== 'false' && v !== '0';
const requested = truthy(process.env.npm_config_build_from_source) || truthy(process.env.SMART_FILE_QUERY_BUILD_FROM_SOURCE);

/** undefined when the binding loads, else the loader's error. */
function loadError() {
  try {
    require(join(root, 'binding.js'));
    return undefined;
  } catch (e) {
    return e;
  }
}

function fail(message) {
  console.error(`smart-file-query: ${message}`);
  process.exit(1);
}

function buildFromSource() {
  const name = platformName();
  const probe = spawnSync('cargo', ['--version'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  if (probe.error || probe.status !== 0) {
    fail(
      `building from source needs Rust's cargo, which was not found on PATH (${probe.error?.message ?? probe.stderr.trim()}). ` +
        `Install Rust (https://rustup.rs), then run \`${BUILD_FROM_SOURCE}\` again.`,
    );
  }
  if (!existsSync(join(root, 'Cargo.toml')) || !existsSync(join(root, 'crates', 'sfq-core', 'src', 'lib.rs'))) {
    fail(`the Rust sources are missing from ${root}; reinstall the package (its tarball ships them).`);
  }
  console.error(`smart-file-query: building the native addon for ${name} from source with ${probe.stdout.trim()} (a few minutes)…`);
  const build = spawnSync('cargo', ['build', '--release', '--locked', '--package', 'smart-file-query', '--lib'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) fail(`\`cargo build --release\` failed (${build.error?.message ?? `exit ${build.status}`}); its output above says which step.`);
  const lib = { darwin: 'libsmart_file_query.dylib', win32: 'smart_file_query.dll' }[process.platform] ?? 'libsmart_file_query.so';
  const built = join(resolve(root, process.env.CARGO_TARGET_DIR || 'target'), 'release', lib);
  if (!existsSync(built)) fail(`cargo reported success but ${built} is missing.`);
  copyFileSync(built, join(root, `smart-file-query.${name}.node`));
  const err = loadError();
  if (err) fail(`the binary built from source does not load: ${err.message}`);
  console.error(`smart-file-query: built smart-file-query.${name}.node from source.`);
}

if (requested) {
  buildFromSource();
} else {
  const err = loadError();
  if (err) {
    const clone = existsSync(join(root, '.git')) && existsSync(join(root, 'node_modules', '@napi-rs', 'cli'));
    console.warn(clone ? 'smart-file-query: no addon built in this clone yet: run `npm run build`.' : loadFailureMessage(err));
  }
}
