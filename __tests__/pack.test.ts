// `npm run pack` (scripts/pack.mjs) in a copy of the repository's packaging
// files with made-up binaries: which `.node` each platform package gets (the
// release build in npm/<platform>/, else the root's `npm run build` output),
// that npm/ is left as it was, and that a missing platform stops a release
// with a message saying what to do. (__tests__/package.test.ts installs the
// real tarballs.)
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types
import { PLATFORMS, nodeFile } from '../scripts/platforms.mjs';

const ROOT = resolve(__dirname, '..');
const NAMES: string[] = (PLATFORMS as { platform: string }[]).map((p) => p.platform);
const file = (platform: string): string => nodeFile({ platform });

type Packed = { name: string; platform: string | null; file: string; bytes: number; nodeBytes: number | null; binary?: string };

let work: string;
let repo: string; // the copy: package.json, README.md, scripts/pack.mjs + platforms.mjs, npm/*
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'sfq-pack-'));
  repo = join(work, 'repo');
  mkdirSync(join(repo, 'scripts'), { recursive: true });
  for (const f of ['package.json', 'README.md', 'index.js', 'scripts/pack.mjs', 'scripts/platforms.mjs']) copyFileSync(join(ROOT, f), join(repo, f));
  for (const name of NAMES) {
    mkdirSync(join(repo, 'npm', name), { recursive: true });
    for (const f of ['package.json', 'README.md']) copyFileSync(join(ROOT, 'npm', name, f), join(repo, 'npm', name, f));
  }
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function pack(...args: string[]) {
  const r = spawnSync(process.execPath, [join(repo, 'scripts', 'pack.mjs'), '--out', join(work, 'out'), ...args], { cwd: repo, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The `.node` inside a platform tarball. */
function binaryIn(tarball: string, platform: string): Buffer {
  return execFileSync('tar', ['xzf', tarball, '-O', `package/${file(platform)}`]);
}

/** The binaries present under npm/ in the copy. */
function npmBinaries(): string[] {
  return NAMES.flatMap((name) => readdirSync(join(repo, 'npm', name)).filter((f) => f.endsWith('.node')).map((f) => `${name}/${f}`));
}

describe('npm run pack', () => {
  it('with no binary at all: stops, packs nothing, and says how to release and how to try the package', () => {
    const r = pack();
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`pack: no binary for ${NAMES.join(', ')} `);
    expect(r.stderr).toContain('`npm run build:all`');
    expect(r.stderr).toContain("`npm run build` builds this machine's binary, then `npm run pack -- --available`");
    expect(existsSync(join(work, 'out'))).toBe(false);
    // The root package alone still packs on request.
    const root = pack('--root-only', '--json');
    expect(root.status).toBe(0);
    expect(JSON.parse(root.stdout).map((t: Packed) => t.name)).toEqual(['smart-file-query']);
  });

  it("after `npm run build` (the root's smart-file-query.<platform>.node only): a release stops naming the others; --available packs the root build", () => {
    const host = 'linux-x64-gnu';
    const built = Buffer.from('a host build\n');
    writeFileSync(join(repo, file(host)), built);
    const release = pack();
    expect(release.status).toBe(1);
    expect(release.stderr).toContain(`pack: no binary for ${NAMES.filter((n) => n !== host).join(', ')} `);
    expect(release.stderr).toContain(`\`npm run pack -- --available\` packs the root and ${host}.`);
    expect(existsSync(join(work, 'out'))).toBe(false);

    const r = pack('--available', '--json');
    expect(r.status, r.stderr).toBe(0);
    const packed: Packed[] = JSON.parse(r.stdout);
    expect(packed.map((t) => [t.name, t.platform, t.binary])).toEqual([
      ['smart-file-query', null, undefined],
      [`smart-file-query-${host}`, host, file(host)],
    ]);
    expect(packed[1].nodeBytes).toBe(built.length);
    expect(binaryIn(packed[1].file, host)).toEqual(built);
    // The root package lists every platform package; the root build did not go into it.
    const manifest = JSON.parse(execFileSync('tar', ['xzf', packed[0].file, '-O', 'package/package.json'], { encoding: 'utf8' }));
    expect(Object.keys(manifest.optionalDependencies)).toEqual(NAMES.map((n) => `smart-file-query-${n}`));
    expect(execFileSync('tar', ['tzf', packed[0].file], { encoding: 'utf8' })).not.toMatch(/\.node$/m);
    // Packed from a staged copy: npm/ holds release builds only, as before.
    expect(npmBinaries()).toEqual([]);
    expect(readdirSync(join(work, 'out')).sort()).toEqual(packed.map((t) => t.file.slice(join(work, 'out').length + 1)).sort());
    expect(r.stderr).toContain(`pack: ${host}: packed the root's build ${file(host)}`);
    expect(r.stderr).toContain(`pack: left out (no binary): ${NAMES.filter((n) => n !== host).join(', ')}; this is not a release`);
  });

  it('with every release build in npm/: the eight tarballs, each platform with its own binary (over a root build)', () => {
    for (const name of NAMES) writeFileSync(join(repo, 'npm', name, file(name)), `release build of ${name}\n`);
    writeFileSync(join(repo, file('linux-x64-gnu')), 'a host build\n');
    const r = pack('--json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const packed: Packed[] = JSON.parse(r.stdout);
    expect(packed.map((t) => t.platform)).toEqual([null, ...NAMES]);
    for (const t of packed.slice(1)) {
      expect(t.binary).toBe(join('npm', t.platform!, file(t.platform!)));
      expect(binaryIn(t.file, t.platform!).toString()).toBe(`release build of ${t.platform}\n`);
    }
    // The text form: one line per tarball.
    const text = pack();
    expect(text.status).toBe(0);
    expect(text.stdout.trim().split('\n')).toHaveLength(1 + NAMES.length);
  });
});
