// A copy of the package's tracked (and new, not ignored) files for running
// the JS suites on another platform's Node (arm64 under qemu, Windows under
// Wine): its own node_modules installed for that platform (vitest's bundler
// has native parts), reinstalled when the lock changes, and the platform's
// addon where the loader looks first.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Fills `run` with the files of the repository at `root`, a repository of
 * its own (the git-based tests look at the copy as one), with node_modules
 * from `npm install <npmFlags>` and `addon` copied in as `addonName`.
 */
export function prepareRunTree({ root, run, npmFlags, addon, addonName, label }) {
  const lock = readFileSync(join(root, 'package-lock.json'), 'utf8');
  const stamp = join(run, '.lock-used');
  const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === lock && existsSync(join(run, 'node_modules'));
  for (const entry of existsSync(run) ? readdirSync(run) : []) {
    if (!fresh || (entry !== 'node_modules' && entry !== '.lock-used')) rmSync(join(run, entry), { recursive: true, force: true });
  }
  mkdirSync(run, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(root, f))) continue;
    mkdirSync(dirname(join(run, f)), { recursive: true });
    copyFileSync(join(root, f), join(run, f));
  }
  execFileSync('git', ['init', '-q'], { cwd: run });
  execFileSync('git', ['add', '-A'], { cwd: run });
  if (!fresh) {
    console.log(`== installing node_modules for ${label} (npm install ${npmFlags.join(' ')})`);
    execFileSync('npm', ['install', ...npmFlags, '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: run, stdio: 'inherit' });
    writeFileSync(stamp, lock);
  }
  copyFileSync(addon, join(run, addonName));
}
