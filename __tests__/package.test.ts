// The package as npm users get it: the public surface matches index.d.ts,
// and a packed tarball installs into a fresh project whose `require`,
// `import` and `npx smart-file-query` work.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..');
const require = createRequire(import.meta.url);
const { PREBUILT, platformName } = require('../lib/load.js');

describe('public surface', () => {
  it('exports exactly what index.d.ts declares', async () => {
    const dts = readFileSync(join(ROOT, 'index.d.ts'), 'utf8');
    // Overloads declare a name more than once: each name counts once.
    const declared = [...new Set([...dts.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1]))].sort();
    const cjs = Object.keys(require(join(ROOT, 'index.js'))).sort();
    expect(cjs).toEqual(declared);
    const esm = Object.keys(await import(join(ROOT, 'index.js'))).filter((k) => k !== 'default').sort();
    expect(esm).toEqual(declared);
  });
});

/** This platform's package name suffix and a `.node` for it: the release build in npm/<platform>/ if present, else this clone's build. */
function platformBinary(): { name: string; node: string } {
  const name = platformName() as string;
  const file = `smart-file-query.${name}.node`;
  const released = join(ROOT, 'npm', name, file);
  return { name, node: existsSync(released) ? released : join(ROOT, file) };
}

/** The tarballs a release publishes (scripts/pack.mjs), with this platform's package packed from a stage holding `node`. */
function packAll(work: string): { root: string; platform: string; rootManifest: Record<string, unknown> } {
  const out = join(work, 'tgz');
  const packed = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), '--out', out, '--json', '--root-only'], { cwd: ROOT, encoding: 'utf8' }));
  const root = packed.find((t: { platform: string | null }) => t.platform === null).file;
  const { name, node } = platformBinary();
  const stage = join(work, 'stage', name);
  cpSync(join(ROOT, 'npm', name), stage, { recursive: true });
  copyFileSync(node, join(stage, `smart-file-query.${name}.node`));
  const info = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' }))[0];
  const rootManifest = JSON.parse(execFileSync('tar', ['xzf', root, '-O', 'package/package.json'], { encoding: 'utf8' }));
  return { root, platform: join(out, info.filename), rootManifest };
}

/** The user's npm cache (the tests' HOME is an empty one), so `--offline` finds the MCP SDK that `npm ci` fetched. */
const NPM_CACHE = join(userInfo().homedir, '.npm');
const npmFlags = ['--no-audit', '--no-fund', `--cache=${NPM_CACHE}`, `--os=${process.platform}`, `--cpu=${process.arch}`];

/** An empty project with the given tarballs installed offline (the runtime dependency's packages cached first). */
function installInto(work: string, tarballs: string[]): string {
  const app = join(work, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
  writeFileSync(join(app, 'hello.txt'), 'hello agent\n');
  // The MCP SDK and its dependencies into the cache (from the registry only when missing), so that the
  // install below can be --offline: the smart-file-query packages then come from the tarballs and nowhere else.
  const warm = join(work, 'warm');
  mkdirSync(warm, { recursive: true });
  writeFileSync(join(warm, 'package.json'), '{"name":"warm","version":"1.0.0","private":true}');
  const sdk = `@modelcontextprotocol/sdk@${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies['@modelcontextprotocol/sdk']}`;
  execFileSync('npm', ['install', '--prefer-offline', ...npmFlags, sdk], { cwd: warm, stdio: 'pipe' });
  execFileSync('npm', ['install', '--offline', ...npmFlags, ...tarballs], { cwd: app, stdio: 'pipe' });
  return app;
}

/** A TypeScript file that uses every export of index.d.ts, type-checked against the installed package. */
function typecheckEveryExport(app: string): void {
  const dts = readFileSync(join(ROOT, 'index.d.ts'), 'utf8');
  const names = [...new Set([...dts.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1]))];
  expect(names.length).toBeGreaterThan(20);
  writeFileSync(
    join(app, 'use.ts'),
    [
      "import * as sfq from 'smart-file-query';",
      "import { smartFileQuery, type SmartFileQueryResult } from 'smart-file-query';",
      `export const everyExport = [${names.map((n) => `sfq.${n}`).join(', ')}];`,
      "export async function matches(): Promise<number> {",
      "  const r: SmartFileQueryResult = await smartFileQuery({ regex: 'agent', glob: '*.txt' });",
      '  return r.aggregate.totalMatches;',
      '}',
      // A wrong option name must be a type error, so the check can fail.
      "// @ts-expect-error: no such option",
      "sfq.smartFileQuerySync({ regexx: 'agent' });",
      '',
    ].join('\n'),
  );
  // Every export imported by name from ESM: type-checked as a strict `nodenext`
  // ES module (named.mts), and the same import line run by Node (named.mjs),
  // whose CommonJS named-export detection must see each name.
  const named = [
    `import { ${names.join(', ')} } from 'smart-file-query';`,
    `const all: Record<string, unknown> = { ${names.join(', ')} };`,
    "const missing = Object.keys(all).filter((k) => all[k] === undefined);",
    "if (missing.length > 0) throw new Error(`not exported by name: ${missing.join(', ')}`);",
    'console.log(Object.keys(all).length);',
    '',
  ].join('\n');
  writeFileSync(join(app, 'named.mts'), named);
  writeFileSync(join(app, 'named.mjs'), named.replace(': Record<string, unknown>', ''));
  const run = spawnSync(process.execPath, ['named.mjs'], { cwd: app, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim()).toBe(String(names.length));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], lib: ['ES2022', 'DOM'] },
      files: ['use.ts', 'named.mts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
}

describe('the release tarballs → npm install --offline', () => {
  it('the root package ships no binary and depends on every platform package at its own version', () => {
    const work = mkdtempSync(join(tmpdir(), 'sfq-pkg-'));
    try {
      const { root, rootManifest } = packAll(work);
      const listing = execFileSync('tar', ['tzf', root], { encoding: 'utf8' }).split('\n');
      expect(listing.filter((f) => f.endsWith('.node'))).toEqual([]);
      expect(listing).toContain('package/lib/load.js');
      const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
      expect(rootManifest.optionalDependencies).toEqual(Object.fromEntries(PREBUILT.map((p: string) => [`smart-file-query-${p}`, version])));
      expect(rootManifest.devDependencies).toBeUndefined();
      expect(rootManifest.scripts).toEqual({ install: 'node scripts/install.mjs' });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('root + this platform\'s package: require, import, the bin, a real query and tsc over every export', () => {
    const work = mkdtempSync(join(tmpdir(), 'sfq-pkg-'));
    try {
      const { root, platform } = packAll(work);
      const app = installInto(work, [root, platform]);
      const { name } = platformBinary();
      // The binary came from the platform package, not from the root.
      expect(existsSync(join(app, 'node_modules', `smart-file-query-${name}`, `smart-file-query.${name}.node`))).toBe(true);
      expect(readdirSync(join(app, 'node_modules', 'smart-file-query')).filter((f) => f.endsWith('.node'))).toEqual([]);
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
      const help = spawnSync('npx', ['--no-install', 'smart-file-query', '--help'], { cwd: app, encoding: 'utf8' });
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(/--regex/);
      const bin = spawnSync('npx', ['--no-install', 'smart-file-query', '--regex', 'agent', '--glob', '*.txt'], { cwd: app, encoding: 'utf8' });
      expect(bin.status).toBe(0);
      expect(JSON.parse(bin.stdout).aggregate.totalMatches).toBe(1);
      typecheckEveryExport(app);
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
  it('without the platform package: a message naming it, then `npm rebuild --build-from-source` builds from the unpacked tarball', () => {
    const work = mkdtempSync(join(tmpdir(), 'sfq-src-'));
    try {
      const { root } = packAll(work);
      const app = installInto(work, [root]);
      const { name } = platformBinary();
      const load = spawnSync(process.execPath, ['-e', "require('smart-file-query')"], { cwd: app, encoding: 'utf8' });
      expect(load.status).not.toBe(0);
      expect(load.stderr).toContain(`no native binary for ${name}: the package smart-file-query-${name} is not installed`);
      expect(load.stderr).toContain('SMART_FILE_QUERY_BUILD_FROM_SOURCE=1 npm rebuild smart-file-query');
      // The CLI says the same in one line, without a stack.
      const cli = spawnSync(process.execPath, [join(app, 'node_modules', 'smart-file-query', 'bin', 'smart-file-query.mjs'), '--regex', 'x'], { cwd: app, encoding: 'utf8' });
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain(`the package smart-file-query-${name} is not installed`);
      expect(cli.stderr).not.toMatch(/\n\s+at /);
      const mcp = spawnSync(process.execPath, [join(app, 'node_modules', 'smart-file-query', 'bin', 'smart-file-query.mjs'), 'mcp'], { cwd: app, encoding: 'utf8', input: '' });
      expect(mcp.status).toBe(1);
      expect(mcp.stdout).toBe('');
      expect(mcp.stderr).toContain(`the package smart-file-query-${name} is not installed`);

      // Asked for, with no cargo on PATH: the message says so.
      const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
      const bare = join(work, 'bare-bin');
      mkdirSync(bare);
      symlinkSync(process.execPath, join(bare, 'node'));
      symlinkSync('/bin/sh', join(bare, 'sh'));
      const noCargo = spawnSync(process.execPath, [npmCli, 'rebuild', 'smart-file-query', '--build-from-source', '--foreground-scripts', `--cache=${NPM_CACHE}`], {
        cwd: app,
        encoding: 'utf8',
        env: { ...process.env, PATH: bare },
      });
      expect(noCargo.status).not.toBe(0);
      expect(noCargo.stderr).toContain("building from source needs Rust's cargo, which was not found on PATH");

      // With cargo: compiled from the installed package's own sources. The build shares this
      // clone's target/ so crates.io dependencies are reused; the workspace crates are
      // compiled from node_modules/smart-file-query (their paths differ from this clone's).
      // (The environment variable, which later npm versions keep passing; npm 11 warns that
      // unknown flags such as --build-from-source will stop reaching install scripts.)
      const built = spawnSync('npm', ['rebuild', 'smart-file-query', '--foreground-scripts', `--cache=${NPM_CACHE}`], {
        cwd: app,
        encoding: 'utf8',
        env: { ...process.env, HOME: userInfo().homedir, CARGO_TARGET_DIR: join(ROOT, 'target'), SMART_FILE_QUERY_BUILD_FROM_SOURCE: '1' },
      });
      expect(built.stderr).toContain(`built smart-file-query.${name}.node from source`);
      expect(built.stderr).toMatch(/Compiling sfq-core v[\d.]+ \(.*node_modules\/smart-file-query\/crates\/sfq-core\)/);
      expect(built.status).toBe(0);
      const query = execFileSync(process.execPath, ['-e',
        "const s=require('smart-file-query');console.log(s.smartFileQuerySync({regex:'agent',glob:'*.txt'}).aggregate.totalMatches)"],
      { cwd: app, encoding: 'utf8' });
      expect(query.trim()).toBe('1');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 900_000);
});
