// Seeded generators of repositories and texts for the differential tests.
import { symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, makeTree } from './tree';

/** mulberry32: a small, seedable PRNG. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

/** Fragments that exercise JS regex semantics: case pairs, astral characters, line terminators, digits. */
export const FRAGMENTS = [
  'alpha', 'Beta', 'GAMMA', 'delta_1', 'TrackingSync', 'TODO', 'fixme', 'Hack',
  'strict', 'ſtrict', 'STRICT', 'K', 'k', '\u212a', 'ß', 'ẞ', 'SS', 'σας', 'ΣΑΣ', 'ϑ', 'θ', 'Ω', '\u2126', 'ω',
  'Å', '\u212b', 'å', 'ǅ', 'ǆ', 'İ', 'ı', 'ﬀ',
  '😀', '𝒳', '👍🏽', 'naïve', 'café', 'e\u0301',
  '\u00a0', '\ufeff', '\u2028', '\u2029', '\u0085', '\u000b', '\u000c', '\u001b[0m', '\r', '\t',
  '12', '2024-01-02', '٣٤', '４２', '0x1F',
  'a', 'b', 'ab', 'aab', 'aaa', 'abab', 'x', 'foo', 'bar', 'foo.bar', 'foo(bar)',
  '(', ')', '[', ']', '{', '}', '.', '*', '\\', '/', '"', "'", '-', '=', '$', '^', '|', '?', '+', ',', ';', ':',
  '<div>', '</div>', '&&', '--', '~~',
];

function line(r: Rng): string {
  const n = r.int(9);
  let s = '';
  for (let i = 0; i < n; i++) s += r.pick(FRAGMENTS) + r.pick(['', ' ', ' ', '  ', '\t', '_']);
  return s;
}

/** A text of `n` lines with mixed LF / CRLF endings and an optional final newline. */
export function text(r: Rng, n = 1 + r.int(12)): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    s += line(r);
    if (i < n - 1 || r.chance(0.6)) s += r.chance(0.3) ? '\r\n' : '\n';
  }
  return s;
}

const NAMES = ['a', 'b', 'src', 'lib', 'docs', 'test', 'x y', 'ünï', 'Ω', '\uff61', '😀', 'dist', 'build', '.hidden', 'Z', '_z', '-d', 'node_modules', '.turbo'];
const EXTS = ['.ts', '.js', '.md', '.txt', '.log', '.json', '', '.tmp'];

const IGNORE_RULES = [
  '*.log', '!keep.log', 'dist/', '/build', 'docs/*.tmp', '**/cache/**', 'a/**/b', '*.tmp', '!important.tmp',
  'x y/', '\\#hash', 'trailing   ', '\\!bang', '[ab].ign', '?.q', 'deep/', '/src/gen', '**/Z', 'ünï/*.md',
];

export interface GeneratedRepo {
  root: string;
  /** Whether it is a git repository. */
  git: boolean;
}

/**
 * A repository exercising discovery and decoding: nested .gitignore files
 * with negations, directory-only, anchored and `**` rules; tracked-but-
 * ignored files; unicode and space names; CRLF / lone-CR / invalid UTF-8 /
 * BOM / UTF-16LE / empty / binary files; files at and over a 1 KiB cap;
 * symlinks (to a file, to a directory, a loop); node_modules at several depths.
 */
export function generateRepo(seed: number): GeneratedRepo {
  const r = rng(seed);
  const files: Record<string, string | Buffer> = {};
  const dirs = [''];
  for (let i = 0; i < 6; i++) {
    const parent = r.pick(dirs);
    dirs.push(`${parent}${r.pick(NAMES)}/`);
  }
  for (let i = 0; i < 45; i++) {
    const name = `${r.pick(dirs)}${r.pick(['f', 'keep', 'important', 'a', 'b', 'c', 'q', 'hash', 'gen', 'ñ', '😀', 'Ｆ'])}${i % 5}${r.pick(EXTS)}`;
    files[name] = text(r);
  }
  // Decoding and binary cases.
  files['enc/bom.txt'] = `\ufeff${text(r)}`;
  files['enc/lone-cr.txt'] = `alpha\rbeta\r\ngamma\r`;
  files['enc/invalid.txt'] = Buffer.concat([Buffer.from('alpha '), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98]), Buffer.from(' beta\n')]);
  files['enc/utf16.txt'] = Buffer.from(`\ufeff${text(r)}alpha 😀 \ud800 end\n`, 'utf16le');
  files['enc/latin1.txt'] = Buffer.from(`caf\u00e9 na\u00efve alpha ${text(r)}`, 'latin1');
  files['enc/empty.txt'] = '';
  files['enc/only-newline.txt'] = '\n';
  files['bin/nul.dat'] = Buffer.from([0x61, 0x6c, 0x70, 0x68, 0x61, 0x00, 0x0a]);
  files['bin/ctrl.txt'] = `alpha\u0001beta\n`;
  files['bin/late-nul.txt'] = Buffer.concat([Buffer.from('alpha\n'.repeat(200)), Buffer.from([0])]);
  files['size/at-cap.txt'] = `${'alpha '.repeat(170)}abcd`.slice(0, 1024);
  files['size/over-cap.txt'] = `${'alpha '.repeat(171)}`.slice(0, 1025);
  files['node_modules/dep/index.js'] = 'alpha\n';
  files['src/node_modules/deep/x.js'] = 'alpha\n';
  files['a/b/node_modules/y.md'] = 'alpha\n';
  files['.turbo/log.txt'] = 'alpha\n';
  files['src/.turbo/z.txt'] = 'alpha\n';
  files['.hidden/dotfile.txt'] = 'alpha\n';
  files['.env'] = 'ALPHA=1\n';
  // Ignore files.
  for (const d of ['', ...dirs.slice(1, 4)]) {
    const rules: string[] = [];
    for (let i = 0; i < 4; i++) rules.push(r.pick(IGNORE_RULES));
    files[`${d}.gitignore`] = `# generated\n${rules.join('\n')}\n`;
  }
  const root = makeTree(files, 'sfq-gen-');
  // Symlinks: never followed or listed.
  mkdirSync(join(root, 'links'), { recursive: true });
  symlinkSync('../enc/bom.txt', join(root, 'links/to-file.txt'));
  symlinkSync('../src', join(root, 'links/to-dir'));
  symlinkSync('loop-b', join(root, 'links/loop-a'));
  symlinkSync('loop-a', join(root, 'links/loop-b'));
  const isGit = seed % 4 !== 3;
  if (isGit) {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    // Tracked though ignored.
    const forced = Object.keys(files).filter((f) => /\.(log|tmp)$/.test(f));
    for (const f of forced.slice(0, 3)) git(root, 'add', '-f', '--', f);
    git(root, 'commit', '-q', '-m', 'generated');
    // Untracked files, some of them ignored.
    writeFileSync(join(root, 'untracked.txt'), text(r));
    writeFileSync(join(root, 'untracked.log'), 'alpha\n');
    mkdirSync(dirname(join(root, 'new/dir/file.ts')), { recursive: true });
    writeFileSync(join(root, 'new/dir/file.ts'), text(r));
  }
  return { root, git: isGit };
}
