// The platform packages: their layout always, and each prebuilt binary that is
// present (`npm run build:all` puts them in npm/<platform>/; CI builds
// linux-x64-gnu and linux-arm64-gnu) checked as its platform would load it:
// file format and architecture, the N-API entry point exported, and what it
// links against (glibc ≤ 2.17, musl's libc only, no libnode / MinGW runtime
// DLLs on Windows, only libSystem on macOS). Reads binaries with LLVM 14's
// tools (Debian's llvm-14, which build:all needs too); the x64 musl one is also
// loaded by musl's loader (musl-gcc from Debian's musl-tools, build:all checks it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types
import { PLATFORMS, nodeFile, rustTriple } from '../scripts/platforms.mjs';

type Platform = { platform: string; rust: string; format: 'elf' | 'macho' | 'pe'; arch: 'x86_64' | 'aarch64'; libc?: 'gnu' | 'musl'; env?: Record<string, string> };

const ROOT = resolve(__dirname, '..');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const platforms = PLATFORMS as Platform[];
const llvm = (tool: string, args: string[]) => execFileSync(`llvm-${tool}-14`, args, { encoding: 'utf8', maxBuffer: 64 << 20 });

const NAPI_CPU: Record<string, string> = { x86_64: 'x64', aarch64: 'arm64' };
// napi.targets names the Rust target of each package; the Windows package is named for the
// MSVC target official Node's loader asks for (its binary is built as windows-gnu).
const napiTriple = (p: Platform) => (p.format === 'pe' ? 'x86_64-pc-windows-msvc' : rustTriple(p));

describe('platform packages', () => {
  it('one npm/<platform>/ per platform, each declared in napi.targets', () => {
    const dirs = readdirSync(join(ROOT, 'npm')).filter((d) => existsSync(join(ROOT, 'npm', d, 'package.json')));
    expect(dirs.sort()).toEqual(platforms.map((p) => p.platform).sort());
    expect([...root.napi.targets].sort()).toEqual(platforms.map(napiTriple).sort());
  });

  it.each(platforms.map((p) => [p.platform, p] as const))('%s: os, cpu, libc, only its .node, the root version', (_name, p) => {
    const m = JSON.parse(readFileSync(join(ROOT, 'npm', p.platform, 'package.json'), 'utf8'));
    expect(m.name).toBe(`${root.name}-${p.platform}`);
    expect(m.version).toBe(root.version);
    expect(m.main).toBe(nodeFile(p));
    expect(m.files).toEqual([nodeFile(p)]);
    expect(m.os).toEqual([{ elf: 'linux', macho: 'darwin', pe: 'win32' }[p.format]]);
    expect(m.cpu).toEqual([NAPI_CPU[p.arch]]);
    if (p.libc) expect(m.libc).toEqual([p.libc === 'gnu' ? 'glibc' : 'musl']);
    else expect(m.libc).toBeUndefined();
    expect(m.license).toBe(root.license);
    expect(m.engines).toEqual(root.engines);
  });
});

const present = platforms.filter((p) => existsSync(join(ROOT, 'npm', p.platform, nodeFile(p))));

/** The highest `GLIBC_x.y` version a dynamic symbol asks for. */
function maxGlibc(dynsyms: string): number[] {
  const versions = [...dynsyms.matchAll(/\bGLIBC_(\d+)\.(\d+)(?:\.(\d+))?/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]);
  expect(versions.length).toBeGreaterThan(0);
  return versions.reduce((a, b) => (a[0] !== b[0] ? (a[0] > b[0] ? a : b) : a[1] !== b[1] ? (a[1] > b[1] ? a : b) : a[2] >= b[2] ? a : b));
}

describe.runIf(present.length > 0)('prebuilt binaries present in npm/', () => {
  it.each(present.map((p) => [p.platform, p] as const))('%s', (_name, p) => {
    const file = join(ROOT, 'npm', p.platform, nodeFile(p));
    const bytes = statSync(file).size;
    console.log(`${p.platform}: ${nodeFile(p)} ${bytes.toLocaleString('en')} bytes (${rustTriple(p)})`);
    expect(bytes).toBeGreaterThan(1 << 20);
    if (p.format === 'elf') {
      const header = llvm('readelf', ['-h', file]);
      expect(header).toMatch(/Class:\s+ELF64/);
      expect(header).toMatch(/Type:\s+DYN/);
      expect(header).toMatch(p.arch === 'x86_64' ? /Machine:\s+Advanced Micro Devices X86-64/ : /Machine:\s+AArch64/);
      const dynsyms = llvm('objdump', ['-T', file]);
      expect(dynsyms).toMatch(/\.text\s+[0-9a-f]+\s+(?:Base\s+)?napi_register_module_v1$/m);
      const needed = [...llvm('readelf', ['-d', file]).matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]).sort();
      if (p.libc === 'gnu') {
        expect(maxGlibc(dynsyms)).toEqual([2, 17, 0]);
        // glibc's own libraries only: no libgcc_s, no libstdc++, no libnode.
        expect(needed.filter((n) => !/^(libc|libpthread|libdl|libm|librt)\.so\.\d$|^ld-linux/.test(n))).toEqual([]);
      } else {
        expect(dynsyms).not.toMatch(/GLIBC_/);
        expect(needed).toEqual(['libc.so']);
        if (p.arch === 'x86_64') {
          // Loaded by musl's own dynamic loader (this machine's arch): a C program built with
          // musl-gcc dlopens it and finds the entry point (N-API itself is Node's, resolved lazily).
          const dir = mkdtempSync(join(tmpdir(), 'sfq-musl-'));
          try {
            writeFileSync(
              join(dir, 'load.c'),
              '#include <dlfcn.h>\n#include <stdio.h>\nint main(int c, char **v) { void *h = dlopen(v[1], RTLD_LAZY); if (!h) { printf("%s\\n", dlerror()); return 1; } printf("%d\\n", dlsym(h, "napi_register_module_v1") != 0); return 0; }\n',
            );
            execFileSync('musl-gcc', ['-o', join(dir, 'load'), join(dir, 'load.c')]);
            expect(execFileSync(join(dir, 'load'), [file], { encoding: 'utf8' }).trim()).toBe('1');
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        }
      }
    } else if (p.format === 'macho') {
      const headers = llvm('objdump', ['--macho', '--private-headers', file]);
      const mach = /MH_MAGIC_64\s+(\S+)\s+\S+\s+\S+\s+(\S+)/.exec(headers);
      expect(mach?.[1]).toBe(p.arch === 'x86_64' ? 'X86_64' : 'ARM64');
      expect(mach?.[2]).toBe('DYLIB');
      // The oldest macOS it loads on: LC_BUILD_VERSION's minos (11+), LC_VERSION_MIN_MACOSX before.
      const minos = /cmd LC_BUILD_VERSION[\s\S]*?minos (\d+\.\d+)|cmd LC_VERSION_MIN_MACOSX\n\s+cmdsize \d+\n\s+version (\d+\.\d+)/.exec(headers);
      expect(minos?.[1] ?? minos?.[2]).toBe(p.env?.MACOSX_DEPLOYMENT_TARGET);
      expect(llvm('nm', ['-g', '--defined-only', file])).toMatch(/ T _napi_register_module_v1$/m);
      const id = /cmd LC_ID_DYLIB\n\s+cmdsize \d+\n\s+name (\S+)/.exec(headers)?.[1];
      // Apple silicon loads only signed code (the linker's ad-hoc signature is enough).
      if (p.arch === 'aarch64') expect(headers).toContain('cmd LC_CODE_SIGNATURE');
      // Named as installed, not by the machine it was built on.
      expect(id).toBe(`@rpath/${nodeFile(p)}`);
      const dylibs = llvm('objdump', ['--macho', '--dylibs-used', file])
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(' ')[0])
        .filter((d) => d && d !== id);
      // N-API comes from the node process (dynamic lookup); everything else from macOS's own
      // libraries (libiconv: Rust's std links it on Apple targets).
      expect(dylibs).toContain('/usr/lib/libSystem.B.dylib');
      expect(dylibs.filter((d) => !/^\/usr\/lib\/lib(System\.B|iconv\.2|charset\.1)\.dylib$/.test(d))).toEqual([]);
    } else {
      const headers = llvm('objdump', ['-p', '-f', file]);
      expect(headers).toMatch(/file format coff-x86-64|file format pe-x86-64|COFF-x86-64/i);
      expect(headers).toMatch(/Characteristics 0x[0-9a-f]*\n(?:.*\n)*?.*\bDLL\b/i);
      const exports = /Export Table:[\s\S]*?(?=\n\n|\nThe Import|$)/.exec(headers)?.[0] ?? '';
      expect(exports).toMatch(/napi_register_module_v1/);
      const imports = [...headers.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1].toLowerCase()).sort();
      expect(imports.length).toBeGreaterThan(0);
      // Windows' own DLLs only: no libnode/node.exe (N-API is resolved at run
      // time), no MinGW runtime (libgcc_s, libwinpthread) a user would lack.
      expect(imports.filter((d) => /node|libgcc|winpthread|libstdc/.test(d))).toEqual([]);
    }
  });
});
