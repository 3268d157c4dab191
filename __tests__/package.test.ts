// The package as npm users get it: the public surface matches index.d.ts,
// and a packed tarball installs into a fresh project whose `require`,
// `import` and `npx smart-file-query` work.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');
const require = createRequire(import.meta.url);

describe('public surface', () => {
  it('exports exactly what index.d.ts declares', async () => {
    const dts = readFileSync(join(ROOT, 'index.d.ts'), 'utf8');
    const declared = [...dts.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1]).sort();
    const cjs = Object.keys(require(join(ROOT, 'index.js'))).sort();
    expect(cjs).toEqual(declared);
    const esm = Object.keys(await import(join(ROOT, 'index.js'))).filter((k) => k !== 'default').sort();
    expect(esm).toEqual(declared);
  });
});

describe('npm pack → npm install', () => {
  it('installs from the tarball and works through require, import and the bin', () => {
    const work = mkdtempSync(join(tmpdir(), 'sfq-pkg-'));
    try {
      const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
      const tarball = join(work, out.trim().split('\n').pop() as string);
      const app = join(work, 'app');
      execFileSync('mkdir', ['-p', app]);
      writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
      writeFileSync(join(app, 'hello.txt'), 'hello agent\n');
      // --prefer-offline, not --offline: the package's runtime dependency (the
      // MCP SDK) is resolved from the registry when the cache lacks its metadata.
      execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app, stdio: 'pipe' });
      const cjs = execFileSync(process.execPath, ['-e',
        "const s=require('smart-file-query');console.log(JSON.stringify(s.smartFileQuerySync({regex:'agent',glob:'*.txt'}).results.map(r=>r.path)))"],
      { cwd: app, encoding: 'utf8' });
      expect(JSON.parse(cjs)).toEqual(['hello.txt']);
      const search = execFileSync(process.execPath, ['-e',
        "const s=require('smart-file-query');console.log(s.searchCodeSync('AGENT',{caseSensitive:false}).matchCount)"],
      { cwd: app, encoding: 'utf8' });
      expect(search.trim()).toBe('1');
      const esm = execFileSync(process.execPath, ['--input-type=module', '-e',
        "import {smartFileQuery} from 'smart-file-query';const r=await smartFileQuery({regex:'hello',glob:'*.txt'});console.log(r.aggregate.totalMatches)"],
      { cwd: app, encoding: 'utf8' });
      expect(esm.trim()).toBe('1');
      const bin = spawnSync('npx', ['--no-install', 'smart-file-query', '--regex', 'agent', '--glob', '*.txt'], { cwd: app, encoding: 'utf8' });
      expect(bin.status).toBe(0);
      expect(JSON.parse(bin.stdout).aggregate.totalMatches).toBe(1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('the source fallback', () => {
  it('the tarball holds every file the Rust build reads, and cargo reads its workspace', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: ROOT, encoding: 'utf8' }))[0].files.map(
      (f: { path: string }) => f.path,
    );
    const inputs = execFileSync('git', ['ls-files', '--', 'Cargo.toml', 'Cargo.lock', 'build.rs', 'src', 'crates'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /^(Cargo\.toml|Cargo\.lock|build\.rs|src\/.+|crates\/[^/]+\/(Cargo\.toml|build\.rs|src\/.+))$/.test(f));
    expect(inputs.filter((f) => f.startsWith('crates/sfq-core/src/')).length).toBeGreaterThan(20);
    expect(inputs.filter((f) => !packed.includes(f))).toEqual([]);
    // Unpacked, the workspace's manifests and targets are all there.
    const work = mkdtempSync(join(tmpdir(), 'sfq-src-'));
    try {
      const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
      execFileSync('tar', ['xzf', out.trim().split('\n').pop() as string], { cwd: work });
      const meta = JSON.parse(
        execFileSync('cargo', ['metadata', '--no-deps', '--format-version', '1', '--offline', '--manifest-path', join(work, 'package', 'Cargo.toml')], {
          cwd: work,
          encoding: 'utf8',
          // The tests' HOME is an empty one; rustup and cargo live in the user's.
          env: { ...process.env, HOME: userInfo().homedir },
        }),
      );
      const libs = meta.packages.map((p: { name: string; targets: { kind: string[] }[] }) => [p.name, p.targets.some((t) => t.kind.includes('lib') || t.kind.includes('cdylib'))]);
      expect(libs.sort()).toEqual([['sfq-core', true], ['sfq-fast', true], ['sfq-outline', true], ['sfq-regex', true], ['sfq-walk', true], ['smart-file-query', true]]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
