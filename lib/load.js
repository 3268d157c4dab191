'use strict';
// Loads the native addon through napi-rs's generated loader (binding.js), which
// looks for `smart-file-query.<platform>.node` next to it, then for the
// platform package `smart-file-query-<platform>`. When neither loads, the error
// names the platform, the package that is missing (or why the one present did
// not load) and how to build the binary from source.

/** The platforms with a prebuilt package (scripts/platforms.mjs lists how each is built). */
const PREBUILT = ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl', 'darwin-x64', 'darwin-arm64', 'win32-x64-msvc'];

const BUILD_FROM_SOURCE = 'SMART_FILE_QUERY_BUILD_FROM_SOURCE=1 npm rebuild smart-file-query';

/** This process's platform in napi-rs's naming (`linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`, …). */
function platformName(platform = process.platform, arch = process.arch) {
  if (platform === 'linux') {
    const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null;
    const glibc = Boolean(report?.header?.glibcVersionRuntime);
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  if (platform === 'win32') return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** Whether a package can be resolved from here (installed), without loading it. */
function installed(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** The message for a failed load: what is missing and the two ways out. */
function loadFailureMessage(cause, name = platformName()) {
  const pkg = `smart-file-query-${name}`;
  const build = `build it from source (needs Rust's cargo, https://rustup.rs): \`${BUILD_FROM_SOURCE}\``;
  const why = cause && cause.message ? ` (${String(cause.message).split('\n')[0]})` : '';
  if (!PREBUILT.includes(name)) {
    return `smart-file-query: no prebuilt binary exists for ${name} (prebuilt: ${PREBUILT.join(', ')}); ${build}.`;
  }
  if (installed(pkg)) {
    return `smart-file-query: the package ${pkg} is installed but its binary did not load${why}; reinstall it, or ${build}.`;
  }
  return (
    `smart-file-query: no native binary for ${name}: the package ${pkg} is not installed. ` +
    'npm installs it as an optional dependency on this platform; it is left out by --omit=optional or --no-optional, ' +
    'and a package-lock.json written on another platform may lack it (reinstall without those). ' +
    `Or ${build}.`
  );
}

/** The addon's exports; throws an Error with `loadFailureMessage` (the loader's error as `cause`, `bindingLoadFailure` set). */
function loadBinding() {
  try {
    return require('../binding.js');
  } catch (cause) {
    const error = new Error(loadFailureMessage(cause));
    error.cause = cause;
    error.bindingLoadFailure = true;
    throw error;
  }
}

module.exports = { PREBUILT, BUILD_FROM_SOURCE, platformName, loadFailureMessage, loadBinding };
