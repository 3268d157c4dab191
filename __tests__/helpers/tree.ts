// Building file trees (optionally git repositories) for tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type Entry = string | Buffer | { symlink: string };

/** The trees made by this test file (removed after its tests, by setup.ts). */
const made: string[] = [];

/** Removes the trees makeTree made. */
export function removeTrees(): void {
  for (const root of made.splice(0)) {
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left for the OS (a tree still being written by a child process).
    }
  }
}

/** Creates a temp directory holding `files` (path → content or symlink target). */
export function makeTree(files: Record<string, Entry>, prefix = 'sfq-tree-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  made.push(root);
  writeTree(root, files);
  return root;
}

export function writeTree(root: string, files: Record<string, Entry>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) {
      symlinkSync(content.symlink, abs);
    } else {
      writeFileSync(abs, content);
    }
  }
}

/** Runs git in `root`. */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `git init` + add everything + commit. */
export function gitInit(root: string): void {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', 'init');
}
