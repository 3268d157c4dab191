// The platforms smart-file-query ships prebuilt binaries for: one row per
// npm/<platform>/ package. Read by the cross-build (scripts/build-all.mjs), the
// packer (scripts/pack.mjs), the artefact checks (__tests__/artefacts.test.ts)
// and the loader's message (lib/load.js keeps its own copy of the names, as
// the published package does not ship scripts/).
//
// route:  'zig'  cargo-zigbuild (zig as the C compiler and linker)
//         'mingw' cargo with x86_64-w64-mingw32-gcc as the C compiler and linker
// rust:   the Rust target the binary is compiled for (a zig glibc suffix such as
//         `.2.17` pins the oldest glibc the binary needs)
// arch:   what the artefact checks expect in the file (ELF machine, Mach-O cpu, PE machine)

/** @typedef {{ platform: string, rust: string, route: 'zig' | 'mingw', format: 'elf' | 'macho' | 'pe', arch: 'x86_64' | 'aarch64', libc?: 'gnu' | 'musl', env?: Record<string, string>, note?: string }} Platform */

/** @type {Platform[]} */
export const PLATFORMS = [
  { platform: 'linux-x64-gnu', rust: 'x86_64-unknown-linux-gnu.2.17', route: 'zig', format: 'elf', arch: 'x86_64', libc: 'gnu' },
  { platform: 'linux-arm64-gnu', rust: 'aarch64-unknown-linux-gnu.2.17', route: 'zig', format: 'elf', arch: 'aarch64', libc: 'gnu' },
  { platform: 'linux-x64-musl', rust: 'x86_64-unknown-linux-musl', route: 'zig', format: 'elf', arch: 'x86_64', libc: 'musl' },
  { platform: 'linux-arm64-musl', rust: 'aarch64-unknown-linux-musl', route: 'zig', format: 'elf', arch: 'aarch64', libc: 'musl' },
  { platform: 'darwin-x64', rust: 'x86_64-apple-darwin', route: 'zig', format: 'macho', arch: 'x86_64', env: { MACOSX_DEPLOYMENT_TARGET: '10.13' } },
  { platform: 'darwin-arm64', rust: 'aarch64-apple-darwin', route: 'zig', format: 'macho', arch: 'aarch64', env: { MACOSX_DEPLOYMENT_TARGET: '11.0' } },
  // Official Node for Windows is an MSVC build, so napi-rs's loader asks for the
  // `win32-x64-msvc` package there. The MSVC target cannot be linked on Linux
  // (its libraries come only from Microsoft); a windows-gnu DLL that imports only
  // system DLLs loads in the same Node, so this package carries one.
  {
    platform: 'win32-x64-msvc',
    rust: 'x86_64-pc-windows-gnu',
    route: 'mingw',
    format: 'pe',
    arch: 'x86_64',
    note: 'built as x86_64-pc-windows-gnu with mingw-w64 (no MSVC libraries on Linux)',
  },
];

/** The Rust target without zig's glibc suffix (`aarch64-unknown-linux-gnu.2.17` → `aarch64-unknown-linux-gnu`). */
export function rustTriple(p) {
  return p.rust.replace(/\.\d+\.\d+$/, '');
}

/** The file cargo writes for the cdylib on the target. */
export function cargoArtefact(p) {
  if (p.format === 'pe') return 'smart_file_query.dll';
  if (p.format === 'macho') return 'libsmart_file_query.dylib';
  return 'libsmart_file_query.so';
}

/** The `.node` file name the loader and the platform package use. */
export function nodeFile(p) {
  return `smart-file-query.${p.platform}.node`;
}
