// Repositories and oracles for the agent search tests (searchCode, grep,
// grepContent, globFiles): git work trees built from a file map, seeded
// random corpora, and the two outside references, `git ls-files` and `rg`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rng } from './generate';
import { git, gitInit, makeTree, type Entry } from './tree';

/** A git work tree holding `files`, everything added and committed. */
export function gitRepo(files: Record<string, Entry>, prefix = 'sfq-agent-'): string {
  const root = makeTree(files, prefix);
  gitInit(root);
  return root;
}

/** What `git ls-files --cached --others --exclude-standard` lists, as a sorted array. */
export function gitListing(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

/** `n` numbered lines `${stem} ${i}` (1-based), each ending in a newline. */
export function numberedLines(stem: string, n: number, from = 1): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += `${stem} ${i}\n`;
  return s;
}

/** Words of the random corpus: case pairs, digits between letters, punctuation that is special in regexes. */
export const CORPUS_WORDS = [
  'alpha', 'beta', 'gamma', 'delta', 'needle', 'Needle', 'NEEDLE', 'needles', 'haystack',
  'foo1bar', 'foo22bar', 'Foo3Bar', 'foo333bar', 'foobar', 'foo-bar', 'fooXbar',
  'x.y(', 'xzy(', 'x.y(z)', '[brackets]', 'a+b', 'a*b', 'path/to', 'café', 'CAFÉ', 'Café',
  'TODO', 'todo', 'Todo', 'the', 'quick', 'brown', 'fox', '$dollar', '^caret', '{brace}', 'pipe|pipe',
];

const CORPUS_DIRS = ['src', 'lib', 'docs', 'a', 'b', 'deep', 'gen', '.config', 'ünï', 'x y', 'node_modules', 'pkg', 'sub'];
const CORPUS_EXTS = ['.ts', '.js', '.md', '.txt', '.log', '.json', '', '.bak', '.tmp'];
const ROOT_RULES = ['*.log', '!keep.log', 'tmp/', '/docs/*.tmp', 'cache/', '*.bak', 'gen/out*', '!gen/out1.ts'];
const NESTED_RULES = ['*.json', '!keep.json', 'sub/', '*.md', 'x*'];

export interface CorpusOptions {
  /** Files to write (default 300). */
  files?: number;
  /** Also `git add -f` some ignored files (tracked though ignored: git lists them, rg does not search them). */
  trackIgnored?: boolean;
  /** Use CRLF on some files (default true). */
  crlf?: boolean;
}

/**
 * A seeded git repository of random-word text files in nested directories:
 * nested `.gitignore` files with negations, anchored and directory rules,
 * dot-directories, a `node_modules` at several depths, untracked files
 * (some of them ignored). No symlinks, binary or oversized files: every
 * candidate file is a searchable text file.
 */
export function corpusRepo(seed: number, options: CorpusOptions = {}): string {
  const r = rng(seed);
  const count = options.files ?? 300;
  const dirs = [''];
  for (let i = 0; i < 14; i++) {
    const parent = r.pick(dirs);
    const dir = `${parent}${r.pick(CORPUS_DIRS)}/`;
    if (!dirs.includes(dir) && dir.split('/').length <= 5) dirs.push(dir);
  }
  for (const fixed of ['node_modules/', 'src/node_modules/pkg/', 'gen/', 'tmp/', 'a/cache/', 'docs/', '.config/', 'src/sub/']) {
    if (!dirs.includes(fixed)) dirs.push(fixed);
  }
  const line = () => {
    const n = r.int(10);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(r.pick(CORPUS_WORDS));
    return words.join(r.pick([' ', ' ', ', ', '\t', ' - ']));
  };
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const dir = r.pick(dirs);
    const name = `${dir}${r.pick(['f', 'keep', 'out', 'x', 'y', 'mod', 'ñ', 'Ω'])}${i % 7}${r.pick(CORPUS_EXTS)}`;
    const lines = ['corpus-header'];
    const n = r.int(25);
    for (let j = 0; j < n; j++) lines.push(line());
    const eol = options.crlf !== false && r.chance(0.2) ? '\r\n' : '\n';
    files[name] = lines.join(eol) + (r.chance(0.8) ? eol : '');
  }
  files['.gitignore'] = `${ROOT_RULES.join('\n')}\n`;
  for (const d of dirs.slice(1, 5)) {
    if (d === 'node_modules/' || d.startsWith('.')) continue;
    const rules = [r.pick(NESTED_RULES), r.pick(NESTED_RULES)];
    files[`${d}.gitignore`] = `# nested\n${rules.join('\n')}\n`;
  }
  files['.env'] = 'corpus-header\nNEEDLE=foo1bar\n';
  const root = makeTree(files, 'sfq-corpus-');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  if (options.trackIgnored) {
    const ignored = Object.keys(files).filter((f) => /\.(log|bak)$/.test(f)).slice(0, 3);
    for (const f of ignored) git(root, 'add', '-f', '--', f);
  }
  git(root, 'commit', '-q', '--allow-empty', '-m', 'corpus');
  // Untracked files: one plain, one ignored, one in a new directory.
  writeFileSync(join(root, 'untracked.txt'), 'corpus-header\nneedle untracked foo1bar\n');
  writeFileSync(join(root, 'untracked.log'), 'corpus-header\nneedle ignored\n');
  makeTreeIn(root, { 'new/dir/file.ts': 'corpus-header\nNeedle x.y( new\n' });
  return root;
}

function makeTreeIn(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

/** Fails with a clear message when ripgrep is not installed (CI installs it). */
export function requireRipgrep(): string {
  const r = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(
      'ripgrep (`rg`) is required by the differential tests and was not found on PATH: install it (apt-get install ripgrep) — these tests are never skipped',
    );
  }
  return r.stdout.split('\n')[0];
}

/** Environment for rg: no user config file. */
function rgEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH;
  return env;
}

/** Runs rg in `root` with `args`; returns stdout (rg exits 1 when nothing matched). */
export function rg(root: string, args: string[]): string {
  // stdin closed: given a readable stdin and no path, rg would search stdin instead of the directory.
  const r = spawnSync('rg', args, { cwd: root, encoding: 'utf8', env: rgEnv(), maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The flags that make rg see the product's searchCode file set: dotfiles in, node_modules and .git out. */
export const RG_FILE_SET = ['--hidden', '--no-messages', '-g', '!node_modules', '-g', '!.git'];

const strip = (p: string) => (p.startsWith('./') ? p.slice(2) : p);

/** `path:lineNumber` of every match event of `rg --json …args -e QUERY [PATH…]`. */
export function rgMatchSet(root: string, args: string[], query: string, paths: string[] = []): Set<string> {
  const out = rg(root, ['--json', ...RG_FILE_SET, ...args, '-e', query, ...paths]);
  const set = new Set<string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const event = JSON.parse(line);
    if (event.type !== 'match') continue;
    const path = event.data.path.text ?? Buffer.from(event.data.path.bytes, 'base64').toString('utf8');
    set.add(`${strip(path)}:${event.data.line_number}`);
  }
  return set;
}

/** The files rg would search (`rg --files`), sorted. */
export function rgFiles(root: string): string[] {
  return rg(root, ['--files', ...RG_FILE_SET])
    .split('\n')
    .filter(Boolean)
    .map(strip)
    .sort();
}

/** Symmetric difference of two sets, for readable failure messages. */
export function setDiff(a: Iterable<string>, b: Iterable<string>): { onlyLeft: string[]; onlyRight: string[] } {
  const A = new Set(a);
  const B = new Set(b);
  return {
    onlyLeft: [...A].filter((x) => !B.has(x)).sort(),
    onlyRight: [...B].filter((x) => !A.has(x)).sort(),
  };
}
