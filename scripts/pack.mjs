#!/usr/bin/env node
// `npm run pack [-- --out DIR] [--json] [--root-only]`: the tarballs a release publishes.
//  - the root package `smart-file-query`: JS, types, the CLI, the Rust sources
//    for building from source, no `.node`; its package.json gains
//    `optionalDependencies` on every platform package at its own version (as
//    `napi pre-publish` does: they are not in the repository's package.json
//    because `npm ci` cannot resolve packages that are not published yet);
//  - one `smart-file-query-<platform>` per npm/<platform>/ whose binary is
//    present (`npm run build` gives linux-x64-gnu, `npm run build:all` all).
// Prints one line per tarball (or, with --json, a JSON array of
// {name, platform, file, bytes, nodeBytes}).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS, nodeFile } from './platforms.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const outIndex = argv.indexOf('--out');
const OUT = resolve(outIndex >= 0 ? argv[outIndex + 1] : join(ROOT, 'dist-tgz'));
const asJson = argv.includes('--json');
const rootOnly = argv.includes('--root-only');

const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function npmPack(dir) {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', OUT], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [info] = JSON.parse(out);
  return join(OUT, info.filename);
}

/** The root package, staged with the published manifest. */
function packRoot() {
  const stage = join(OUT, 'stage', root.name);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const [listing] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  for (const { path } of listing.files) {
    if (path.endsWith('.node')) throw new Error(`the root package must not ship a binary, but npm pack lists ${path}`);
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(stage, path));
  }
  const manifest = { ...root };
  manifest.optionalDependencies = Object.fromEntries(PLATFORMS.map((p) => [`${root.name}-${p.platform}`, root.version]));
  // What only the repository uses stays out of the published manifest.
  delete manifest.devDependencies;
  delete manifest.overrides;
  manifest.scripts = { install: root.scripts.install };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const file = npmPack(stage);
  rmSync(join(OUT, 'stage'), { recursive: true, force: true });
  return { name: root.name, platform: null, file, bytes: statSync(file).size, nodeBytes: null };
}

function packPlatform(p) {
  const dir = join(ROOT, 'npm', p.platform);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.version !== root.version) throw new Error(`npm/${p.platform}/package.json has version ${manifest.version}, the root ${root.version}`);
  const node = join(dir, nodeFile(p));
  const file = npmPack(dir);
  return { name: manifest.name, platform: p.platform, file, bytes: statSync(file).size, nodeBytes: statSync(node).size };
}

mkdirSync(OUT, { recursive: true });
const packed = [packRoot()];
for (const p of rootOnly ? [] : PLATFORMS) {
  if (existsSync(join(ROOT, 'npm', p.platform, nodeFile(p)))) packed.push(packPlatform(p));
}
if (asJson) {
  console.log(JSON.stringify(packed));
} else {
  for (const t of packed) {
    console.log(`${t.file}  ${t.bytes.toLocaleString('en')} bytes${t.nodeBytes ? ` (${nodeFile({ platform: t.platform })} ${t.nodeBytes.toLocaleString('en')} bytes)` : ''}`);
  }
}
