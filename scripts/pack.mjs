#!/usr/bin/env node
// `npm run pack [-- --out DIR] [--json] [--available | --root-only]`: the
// tarballs a release publishes.
//  - the root package `smart-file-query`: JS, types, the CLI, the Rust sources
//    for building from source, no `.node`; its package.json gains
//    `optionalDependencies` on every platform package at its own version (as
//    `napi pre-publish` does: they are not in the repository's package.json
//    because `npm ci` cannot resolve packages that are not published yet);
//  - one `smart-file-query-<platform>` per npm/<platform>/, holding its
//    binary: npm/<platform>/smart-file-query.<platform>.node (the release
//    build: `npm run build:all`, or the release workflow's artifacts), else
//    the build `npm run build` (napi build --platform) left at the root,
//    smart-file-query.<platform>.node, for this machine's platform. The
//    package is packed from a staged copy, so npm/ keeps release builds only
//    (__tests__/artefacts.test.ts checks whatever is there as one).
// A release needs every platform: when one has no binary, it stops, saying
// which and what to do, and packs nothing. `--available` packs the root and
// the platforms that have a binary (to try the package; not a release);
// `--root-only` the root alone.
// Prints one line per tarball (or, with --json, a JSON array of
// {name, platform, file, bytes, nodeBytes, binary}: binary is the `.node`
// packed, relative to the repository), and on stderr which binaries came from
// the root's build and which platforms were left out.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS, nodeFile } from './platforms.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const outIndex = argv.indexOf('--out');
const OUT = resolve(outIndex >= 0 ? argv[outIndex + 1] : join(ROOT, 'dist-tgz'));
const asJson = argv.includes('--json');
const rootOnly = argv.includes('--root-only');
const available = argv.includes('--available');

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

/** The binary packed for `p`: the release build in npm/<platform>/, else the root's build, else none. */
function binaryOf(p) {
  for (const candidate of [join(ROOT, 'npm', p.platform, nodeFile(p)), join(ROOT, nodeFile(p))]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** npm/<platform>/, packed from a staged copy that holds `node`. */
function packPlatform(p, node) {
  const dir = join(ROOT, 'npm', p.platform);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.version !== root.version) throw new Error(`npm/${p.platform}/package.json has version ${manifest.version}, the root ${root.version}`);
  const stage = join(OUT, 'stage', p.platform);
  rmSync(stage, { recursive: true, force: true });
  cpSync(dir, stage, { recursive: true });
  copyFileSync(node, join(stage, nodeFile(p)));
  const file = npmPack(stage);
  rmSync(join(OUT, 'stage'), { recursive: true, force: true });
  return { name: manifest.name, platform: p.platform, file, bytes: statSync(file).size, nodeBytes: statSync(node).size, binary: relative(ROOT, node) };
}

function stop(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

const platforms = rootOnly ? [] : PLATFORMS.map((p) => ({ p, node: binaryOf(p) }));
const missing = platforms.filter((x) => x.node === undefined).map((x) => x.p.platform);
if (missing.length > 0 && !available) {
  const present = platforms.filter((x) => x.node !== undefined).map((x) => x.p.platform);
  stop(
    `no binary for ${missing.join(', ')} (looked for npm/<platform>/smart-file-query.<platform>.node, then the root's ` +
      'smart-file-query.<platform>.node); a release packs every platform, so nothing was packed.\n' +
      '  To release: `npm run build:all` cross-builds every platform into npm/ (or put the release workflow\'s artifacts ' +
      'there), then `npm run pack` again.\n' +
      (present.length > 0
        ? `  To try the package: \`npm run pack -- --available\` packs the root and ${present.join(', ')}.`
        : "  To try the package: `npm run build` builds this machine's binary, then `npm run pack -- --available`."),
  );
}

mkdirSync(OUT, { recursive: true });
const packed = [packRoot()];
for (const { p, node } of platforms) {
  if (node === undefined) continue;
  if (dirname(node) === ROOT) {
    console.error(`pack: ${p.platform}: packed the root's build ${nodeFile(p)} (\`npm run build\`: linked for this machine; a release build comes from \`npm run build:all\`)`);
  }
  packed.push(packPlatform(p, node));
}
if (missing.length > 0) console.error(`pack: left out (no binary): ${missing.join(', ')}; this is not a release`);
if (asJson) {
  console.log(JSON.stringify(packed));
} else {
  for (const t of packed) {
    console.log(`${t.file}  ${t.bytes.toLocaleString('en')} bytes${t.nodeBytes ? ` (${nodeFile({ platform: t.platform })} ${t.nodeBytes.toLocaleString('en')} bytes)` : ''}`);
  }
}
