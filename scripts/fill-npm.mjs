#!/usr/bin/env node
// Copies each built addon (`smart-file-query.<platform>.node` at the package root, where
// `napi build --platform` writes it) into its per-platform package folder under npm/.
// Does what `napi artifacts -o .` does for a local build, without searching the whole tree
// (which finds scratch builds under target/ and refuses to choose).
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let copied = 0;
for (const dir of readdirSync(join(root, 'npm'))) {
  const manifest = join(root, 'npm', dir, 'package.json');
  if (!existsSync(manifest)) continue;
  const { main } = JSON.parse(readFileSync(manifest, 'utf8'));
  const built = join(root, main);
  if (!existsSync(built)) continue;
  copyFileSync(built, join(root, 'npm', dir, main));
  console.log(`npm/${dir}/${main} <- ${main}`);
  copied++;
}
if (copied === 0) {
  console.error('fill-npm: no built addon found next to package.json; run `npm run build` first');
  process.exit(1);
}
