// Monorepos through the public surface: `recurseSubmodules` (JS API, CLI
// flag --recurse-submodules, MCP argument) against git on repositories built
// here, and what a sparse checkout left out (skipped.notCheckedOut and the
// hint of the agent searches and globFiles).
//
// Submodules: with the option, the candidate files are, for the superproject
// and under each initialised submodule's path (recursively), `git -C <repo>
// ls-files --cached --others --exclude-standard` (gitlinks left out): tracked
// as `git ls-files --recurse-submodules`, untracked inside a submodule by its
// own ignore rules. Without it, nothing below a gitlink, as before.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findFilesSync,
  globFilesSync,
  grepContentSync,
  grepSync,
  sampleSync,
  scoutSync,
  searchCodeSync,
  showSync,
  smartFileQuerySync,
  surveySync,
} from '../index.js';
import { git, gitInit, writeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

/** git with local file URLs allowed (submodule add / update from a path). */
function g(root: string, ...args: string[]): string {
  return git(root, '-c', 'protocol.file.allow=always', ...args);
}

function repoWith(dir: string, files: Record<string, string>): string {
  writeTree(dir, files);
  gitInit(dir);
  return dir;
}

const byUtf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The gitlinks of the index at `root`. */
function gitlinks(root: string): Set<string> {
  return new Set(
    g(root, 'ls-files', '-z', '-s')
      .split('\0')
      .filter((r) => r.startsWith('160000 '))
      .map((r) => r.slice(r.indexOf('\t') + 1)),
  );
}

/** Whether `dir` is a work tree's top of its own (an initialised submodule). */
function initialised(dir: string): boolean {
  if (!existsSync(join(dir, '.git'))) return false;
  const r = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' });
  // (resolve: Git for Windows writes the top as C:/…, with /)
  return r.status === 0 && resolve(r.stdout.trim()) === resolve(dir);
}

/** What git lists (see the header), in path order. */
function gitFiles(root: string, recurse: boolean, prefix = ''): string[] {
  const links = gitlinks(root);
  const out = g(root, 'ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard')
    .split('\0')
    .filter((r) => r.length > 2 && !r.startsWith('S '))
    .map((r) => r.slice(2))
    .filter((p) => !links.has(p) && !p.endsWith('/'))
    .map((p) => prefix + p);
  if (recurse) {
    for (const link of links) {
      if (initialised(join(root, link))) out.push(...gitFiles(join(root, link), true, `${prefix}${link}/`));
    }
  }
  return out.sort(byUtf16);
}

let tmp: string;
let top: string; // the superproject
let clone: string; // a clone whose submodules were never initialised

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sfq-submodules-'));
  const deep = repoWith(join(tmp, 'deep-src'), { 'deep.txt': 'needle deep\n' });
  const lib = repoWith(join(tmp, 'lib-src'), {
    'lib.txt': 'needle lib\n',
    'src/a.ts': 'export const needle = 1;\n',
    '.gitignore': '*.log\n',
  });
  g(lib, 'submodule', 'add', '-q', deep, 'nested/deep');
  g(lib, 'commit', '-q', '-m', 'nested');
  const other = repoWith(join(tmp, 'other-src'), { 'other.txt': 'needle other\n' });
  top = repoWith(join(tmp, 'super'), {
    'README.md': 'needle top\n',
    '.gitignore': '*.tmp\n',
    'src/main.ts': 'console.log("needle");\n',
  });
  g(top, 'submodule', 'add', '-q', lib, 'libs/lib');
  g(top, 'submodule', 'add', '-q', other, 'gone');
  g(top, 'commit', '-q', '-m', 'submodules');
  g(top, 'submodule', 'update', '-q', '--init', '--recursive');
  g(top, 'submodule', 'deinit', '-q', '-f', 'gone');
  writeTree(top, {
    'new.txt': 'needle untracked at the top\n',
    'scratch.tmp': 'needle ignored at the top\n',
    'libs/lib/fresh.ts': 'export const needle = "untracked in the submodule";\n',
    'libs/lib/trace.log': 'needle ignored by the submodule\n',
    'libs/lib/note.tmp': 'needle: the superproject\'s *.tmp does not apply here\n',
    'libs/lib/nested/deep/more.txt': 'needle untracked in the nested submodule\n',
  });
  clone = join(tmp, 'clone');
  g(tmp, 'clone', '-q', top, clone);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const files = (root: string, recurseSubmodules?: boolean) =>
  findFilesSync({ cwd: root, pattern: '**/*', maxResults: 100_000, recurseSubmodules })
    .filter((f) => f.type === 'file')
    .map((f) => f.path);

describe('recurseSubmodules through the JS API', () => {
  it('the files are git ls-files of each repository, prefixed; without it, as before', () => {
    const on = gitFiles(top, true);
    expect(on).toContain('libs/lib/nested/deep/more.txt');
    expect(on).toContain('libs/lib/note.tmp');
    expect(on).not.toContain('libs/lib/trace.log');
    expect(files(top, true)).toEqual(on);
    const off = gitFiles(top, false);
    expect(off.some((p) => p.startsWith('libs/'))).toBe(false);
    expect(files(top)).toEqual(off);
    expect(files(top, false)).toEqual(off);
    // Tracked ones: git ls-files --recurse-submodules (the deinitialised
    // submodule is listed there as its gitlink).
    const tracked = g(top, 'ls-files', '-z', '--recurse-submodules').split('\0').filter((p) => p && p !== 'gone');
    const untracked = new Set(['new.txt', 'libs/lib/fresh.ts', 'libs/lib/note.tmp', 'libs/lib/nested/deep/more.txt']);
    expect(on.filter((p) => !untracked.has(p))).toEqual(tracked.sort(byUtf16));
    // Folders: the submodule's own, once each, in path order.
    const dirs = findFilesSync({ cwd: top, pattern: '**/*', maxResults: 100_000, recurseSubmodules: true, sizes: false })
      .filter((f) => f.type === 'dir')
      .map((f) => f.path);
    expect(dirs).toEqual(['gone', 'libs', 'libs/lib', 'libs/lib/nested', 'libs/lib/nested/deep', 'libs/lib/src', 'src']);
  });

  it('smartFileQuery searches them and echoes the option only when given', () => {
    const want = gitFiles(top, true).filter((p) => p !== '.gitignore' && p !== '.gitmodules' && !p.endsWith('.gitmodules') && !p.endsWith('/.gitignore'));
    const on = smartFileQuerySync({ cwd: top, regex: 'needle', recurseSubmodules: true });
    expect(on.results.map((r) => r.path)).toEqual(want);
    expect(on.query.recurseSubmodules).toBe(true);
    const off = smartFileQuerySync({ cwd: top, regex: 'needle' });
    expect(off.results.map((r) => r.path)).toEqual(['README.md', 'new.txt', 'src/main.ts']);
    expect(Object.keys(off.query)).toEqual(['regex', 'flags', 'glob', 'ignore', 'contextLines', 'includeAllContent', 'maxFileSizeKB', 'maxMatches']);
    expect(smartFileQuerySync({ cwd: top, regex: 'needle', recurseSubmodules: false })).toEqual(off);
    // A glob into the submodule.
    const glob = smartFileQuerySync({ cwd: top, regex: 'needle', glob: 'libs/**/*.ts', recurseSubmodules: true });
    expect(glob.results.map((r) => r.path)).toEqual(['libs/lib/fresh.ts', 'libs/lib/src/a.ts']);
  });

  it('the agent searches and globFiles take it', () => {
    const sc = searchCodeSync('needle', { cwd: top, recurseSubmodules: true, maxResults: 100 });
    expect(sc.matches.map((m) => m.path)).toContain('libs/lib/nested/deep/deep.txt');
    expect(searchCodeSync('needle', { cwd: top, maxResults: 100 }).matches.some((m) => m.path.startsWith('libs/'))).toBe(false);
    const gr = grepSync({ pattern: 'needle', cwd: top, recurseSubmodules: true, maxResults: 100 });
    expect(gr.map((m) => m.file)).toEqual(sc.matches.map((m) => m.path));
    const gc = grepContentSync({ pattern: 'needle', cwd: top, recurseSubmodules: true, fileGlob: '*.ts' });
    expect(gc.matches.map((m) => m.file)).toEqual(['libs/lib/fresh.ts', 'libs/lib/src/a.ts', 'src/main.ts']);
    expect(gc.matches[0].absolutePath).toBe(join(top, 'libs/lib/fresh.ts'));
    const gf = globFilesSync({ pattern: '**/*.txt', cwd: top, recurseSubmodules: true });
    expect(gf.files.map((f) => f.path)).toEqual(gitFiles(top, true).filter((p) => p.endsWith('.txt')));
    expect(globFilesSync({ pattern: '**/*.txt', cwd: top }).files.map((f) => f.path)).toEqual(['new.txt']);
    // A search path inside a submodule is that submodule's work tree, with
    // or without the option (its own submodules with it only).
    const inside = (recurseSubmodules: boolean) =>
      searchCodeSync('needle', { cwd: top, path: 'libs/lib', maxResults: 100, recurseSubmodules }).matches.map((m) => m.path);
    const all = sc.matches.map((m) => m.path).filter((p) => p.startsWith('libs/lib/'));
    expect(inside(true)).toEqual(all);
    expect(inside(false)).toEqual(all.filter((p) => !p.startsWith('libs/lib/nested/')));
  });

  it('survey, scout and sample take it; show (one file) refuses it', () => {
    const scout = scoutSync({ query: 'needle', cwd: top, recurseSubmodules: true });
    expect(scout.text).toContain('libs/lib');
    expect(scoutSync({ query: 'needle', cwd: top }).text).not.toContain('libs/lib');
    const survey = surveySync({ terms: ['needle'], cwd: top, recurseSubmodules: true });
    expect(survey.byPath.map((r) => r.path)).toContain('libs');
    expect(sampleSync({ query: 'deep', cwd: top, recurseSubmodules: true }).text).toContain('libs/lib/nested/deep/deep.txt');
    expect(() => showSync({ query: 'needle', file: 'README.md', cwd: top, recurseSubmodules: true } as never)).toThrow(
      /unknown option 'recurseSubmodules'/,
    );
  });

  it('uninitialised submodules are skipped without an error', () => {
    expect(existsSync(join(clone, 'libs/lib'))).toBe(true);
    expect(files(clone, true)).toEqual(gitFiles(clone, true));
    expect(files(clone, true)).toEqual(files(clone, false));
    expect(searchCodeSync('needle', { cwd: clone, recurseSubmodules: true }).skipped).toEqual({ binary: 0, tooLarge: 0, unreadable: 0, budget: 0 });
  });

  it('a non-boolean is refused', () => {
    expect(() => searchCodeSync('x', { cwd: top, recurseSubmodules: 'yes' as never })).toThrow(/recurseSubmodules' must be a boolean/);
  });
});

describe('--recurse-submodules on the command line', () => {
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: top, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return r.stdout;
  };

  it('the default command, search, find and scout', () => {
    const payload = JSON.parse(run('--regex', 'needle', '--recurse-submodules'));
    expect(payload).toEqual(smartFileQuerySync({ cwd: top, regex: 'needle', recurseSubmodules: true }));
    expect(JSON.parse(run('--regex', 'needle')).query.recurseSubmodules).toBeUndefined();
    const search = JSON.parse(run('search', 'needle', '--recurse-submodules', '--max-results', '100'));
    expect(search.matches.map((m: { path: string }) => m.path)).toContain('libs/lib/fresh.ts');
    const find = run('find', '*.txt', '--recurse-submodules', '--max-results', '1000').trim().split('\n');
    expect(find).toEqual(gitFiles(top, true).filter((p) => p.endsWith('.txt')));
    expect(run('find', '*.txt').trim().split('\n')).toEqual(['new.txt']);
    expect(run('scout', 'needle', '--recurse-submodules')).toBe(scoutSync({ query: 'needle', cwd: top, recurseSubmodules: true }).text);
    const show = spawnSync(process.execPath, [BIN, 'show', 'needle', 'README.md', '--recurse-submodules'], { cwd: top, encoding: 'utf8' });
    expect(show.status).toBe(2);
    for (const cmd of [[], ['search'], ['find'], ['survey'], ['scout'], ['sample']]) {
      expect(run(...cmd, '--help')).toContain('--recurse-submodules');
    }
  });
});

describe('recurse_submodules through an MCP client', () => {
  it('grep_content, search_code and find_files, each in its naming style', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: top, stderr: 'pipe' });
    const client = new Client({ name: 'sfq-submodules-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await client.listTools();
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; structuredContent?: any; isError?: boolean };
        // An answer's JSON is structuredContent; an error's, the text.
        return { error: r.isError === true, value: r.isError ? JSON.parse(r.content[0].text) : r.structuredContent };
      };
      const gc = await call('grep_content', { pattern: 'needle', file_glob: '*.ts', recurse_submodules: true });
      expect(gc.error).toBe(false);
      expect(gc.value.matches.map((m: { file: string }) => m.file)).toEqual(['libs/lib/fresh.ts', 'libs/lib/src/a.ts', 'src/main.ts']);
      const off = await call('grep_content', { pattern: 'needle', file_glob: '*.ts' });
      expect(off.value.matches.map((m: { file: string }) => m.file)).toEqual(['src/main.ts']);
      const sc = await call('search_code', { query: 'deep', recurse_submodules: true });
      expect(sc.value.matches.map((m: { path: string }) => m.path)).toContain('libs/lib/nested/deep/deep.txt');
      const ff = await call('find_files', { pattern: '*.txt', recurseSubmodules: true, maxResults: 1000 });
      expect(ff.value.files.map((f: { path: string }) => f.path)).toEqual(gitFiles(top, true).filter((p) => p.endsWith('.txt')));
      // Each tool's own spelling only.
      expect((await call('grep_content', { pattern: 'needle', recurseSubmodules: true })).error).toBe(true);
      expect((await call('find_files', { pattern: '*', recurse_submodules: true })).error).toBe(true);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('what a sparse checkout left out', () => {
  let sparse: string;
  let sparseIndex: string;
  let full: string;
  const tree = {
    'top.txt': 'needle top\n',
    'a/x.txt': 'needle a\n',
    'b/y.txt': 'needle b\n',
    'b/deep/z.txt': 'needle b deep\n',
    'c/w.txt': 'needle c\n',
  };
  beforeAll(() => {
    full = repoWith(join(tmp, 'full'), tree);
    sparse = repoWith(join(tmp, 'sparse'), tree);
    g(sparse, 'sparse-checkout', 'set', 'a');
    sparseIndex = repoWith(join(tmp, 'sparse-index'), tree);
    g(sparseIndex, 'sparse-checkout', 'set', '--sparse-index', 'a');
  });

  const notCheckedOut = (root: string) =>
    g(root, '-c', 'advice.sparseIndexExpanded=false', 'ls-files', '-t').split('\n').filter((l) => l.startsWith('S ')).length;

  it('searchCode and grepContent count the files and say so when nothing matched', () => {
    expect(notCheckedOut(sparse)).toBe(3);
    const sc = searchCodeSync('needle', { cwd: sparse });
    expect(sc.matches.map((m) => m.path)).toEqual(['a/x.txt', 'top.txt']);
    expect(sc.skipped.notCheckedOut).toBe(3);
    expect(sc.hint).toBeUndefined();
    const none = searchCodeSync('absent', { cwd: sparse });
    expect(none.hint).toBe('0 matches; 3 files of the sparse checkout are not checked out');
    expect(searchCodeSync('absent', { cwd: sparse, hintMs: 0 }).hint).toBeUndefined();
    // Only what the search's filters would have taken: an exclusion, an extension.
    expect(searchCodeSync('absent', { cwd: sparse, excludePatterns: ['b'] }).skipped.notCheckedOut).toBe(1);
    expect(searchCodeSync('absent', { cwd: sparse, includeExtensions: ['.md'] }).skipped.notCheckedOut).toBeUndefined();
    const gc = grepContentSync({ pattern: 'absent', cwd: sparse });
    expect(gc.skipped.notCheckedOut).toBe(3);
    expect(gc.hint).toBe('0 matches; 3 files of the sparse checkout are not checked out');
    expect(grepContentSync({ pattern: 'needle', cwd: sparse, fileGlob: 'c/*' }).hint).toBe(
      '0 matches; 1 file of the sparse checkout is not checked out',
    );
  });

  it('a sparse index leaves out directories, counted once each', () => {
    const none = searchCodeSync('absent', { cwd: sparseIndex });
    expect(none.skipped.notCheckedOut).toBe(2);
    expect(none.hint).toBe('0 matches; 2 directories of the sparse checkout are not checked out');
  });

  it('globFiles counts and hints too', () => {
    const gf = globFilesSync({ pattern: '**/*.txt', cwd: sparse });
    expect(gf.files.map((f) => f.path)).toEqual(['a/x.txt', 'top.txt']);
    expect(gf.skipped.notCheckedOut).toBe(3);
    expect(globFilesSync({ pattern: 'b/**', cwd: sparse }).hint).toBe('0 files; 2 files of the sparse checkout are not checked out');
  });

  it('nothing changes where nothing was left out', () => {
    const sc = searchCodeSync('absent', { cwd: full });
    expect(sc.skipped).toEqual({ binary: 0, tooLarge: 0, unreadable: 0, budget: 0 });
    expect(sc.hint).toBeUndefined();
    expect(JSON.stringify(grepContentSync({ pattern: 'absent', cwd: full }).skipped)).toBe('{"binary":0,"tooLarge":0,"unreadable":0,"budget":0}');
    // smartFileQuery's payload gets nothing new, sparse or not.
    const sfq = smartFileQuerySync({ cwd: sparse, regex: 'absent' });
    expect(Object.keys(sfq)).toEqual(['query', 'results', 'skipped', 'aggregate']);
  });
});
