// Every test process gets its own empty HOME, so the user's global git
// configuration and excludes file never leak into git or into the addon.
// It is removed after the file's tests, with the trees makeTree built.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTrees } from './tree';

const home = mkdtempSync(join(tmpdir(), 'sfq-home-'));
mkdirSync(join(home, '.config'), { recursive: true });
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = join(home, '.config');
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_AUTHOR_NAME = 'sfq tests';
process.env.GIT_AUTHOR_EMAIL = 'tests@example.invalid';
process.env.GIT_COMMITTER_NAME = 'sfq tests';
process.env.GIT_COMMITTER_EMAIL = 'tests@example.invalid';
delete process.env.GIT_DIR;
delete process.env.GIT_WORK_TREE;

afterAll(() => {
  removeTrees();
  try {
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Left for the OS.
  }
});
