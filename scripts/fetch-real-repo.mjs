#!/usr/bin/env node
// Brings a real public repository for the differential tests: Django 5.2.8's
// source distribution from PyPI (about 10,000 files: Python, templates, JS,
// CSS, translations with non-ASCII text, binary images and .mo files), made
// into a git repository with ignore rules, a tracked-but-ignored file and an
// untracked directory. Kept under .corpus/ (git-ignored, never committed).
// Usage: node scripts/fetch-real-repo.mjs  → prints the repository path.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, '.corpus');
const NAME = 'django-5.2.8';
const URL_ = 'https://files.pythonhosted.org/packages/05/a2/933dbbb3dd9990494960f6e64aca2af4c0745b63b7113f59a822df92329e/django-5.2.8.tar.gz';
const SHA256 = '23254866a5bb9a2cfa6004e8b809ec6246eba4b58a7589bc2772f1bcc8456c7f';

export async function fetchRealRepo() {
  const repo = join(CORPUS, NAME);
  if (existsSync(join(repo, '.sfq-ready'))) return repo;
  mkdirSync(CORPUS, { recursive: true });
  const tarball = join(CORPUS, `${NAME}.tar.gz`);
  if (!existsSync(tarball)) {
    const res = await fetch(URL_);
    if (!res.ok) throw new Error(`download of ${URL_} failed: HTTP ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    const got = createHash('sha256').update(body).digest('hex');
    if (got !== SHA256) throw new Error(`checksum mismatch for ${URL_}: ${got}`);
    writeFileSync(`${tarball}.part`, body);
    renameSync(`${tarball}.part`, tarball);
  }
  rmSync(repo, { recursive: true, force: true });
  execFileSync('tar', ['--no-same-owner', '-xzf', tarball, '-C', CORPUS]);
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'corpus',
        GIT_AUTHOR_EMAIL: 'corpus@example.invalid',
        GIT_COMMITTER_NAME: 'corpus',
        GIT_COMMITTER_EMAIL: 'corpus@example.invalid',
      },
    });
  writeFileSync(join(repo, '.gitignore'), '*.mo\n/docs/_ext/\n*.egg-info/\n!Django.egg-info/PKG-INFO\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A', '--', '.', ':!js_tests');
  git('add', '-f', '--', 'django/conf/locale/fr/LC_MESSAGES/django.mo');
  git('commit', '-q', '-m', 'Django 5.2.8 sdist');
  writeFileSync(join(repo, '.sfq-ready'), `${readFileSync(tarball).length}\n`);
  // .sfq-ready itself is an untracked file; it does not affect the tests.
  return repo;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await fetchRealRepo());
}
