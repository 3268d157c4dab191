// The texts that state a default exclusion list state the one the engine
// uses: each list is one constant (crates/sfq-core/src/excludes.rs), carried
// to JS by the generated lib/generated/options.js; the MCP descriptions are
// built from it, and every other statement (README, index.d.ts, the CLI
// usages, the MCP descriptions too) is checked against it here. A new
// default exclusion is one line in excludes.rs (then `SFQ_BLESS=1 cargo
// test -p sfq-core generated` for options.js): `SFQ_BLESS=1 npx vitest run
// __tests__/prose.test.ts` then restates it in README.md and index.d.ts,
// each statement in its own style (helpers/prose.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../lib/cli/registry.mjs';
import { TOOLS } from '../lib/mcp/tools.mjs';
import { bare, locate, restate } from './helpers/prose';

const root = resolve(__dirname, '..');
const { EXCLUDES } = createRequire(import.meta.url)('../lib/generated/options.js') as {
  EXCLUDES: Record<string, string[]>;
};
const file = (name: string) => readFileSync(resolve(root, name), 'utf8');
const usage = (name: string) => SUBCOMMANDS.find((c: { name: string }) => c.name === name)!.usage as string;
const tool = (name: string) => TOOLS.find((t: { name: string }) => t.name === name)!.description as string;

/** Where a text states a list: between `from` and `to` in `text`, the list of `api`. */
interface Statement {
  where: string;
  text: string;
  from: string;
  to: string;
  api: string;
}

const BLESS = Boolean(process.env.SFQ_BLESS);

/** The lists README.md and index.d.ts state, restated from the constants (with SFQ_BLESS). */
function bless(name: string, statements: Omit<Statement, 'text'>[]): string {
  const before = file(name);
  const text = statements.reduce((t, s) => restate(t, s.from, s.to, EXCLUDES[s.api]), before);
  if (text !== before) writeFileSync(resolve(root, name), text);
  return text;
}

const IN_README: Omit<Statement, 'text'>[] = [
  { where: 'README: find', from: '(`.gitignore` respected, ', to: ' left out, 100 entries', api: 'findFiles' },
  { where: 'README: seed 003 example', from: '// seed 003: literal, smart case, .gitignore + ', to: ' excluded, 50 results.', api: 'searchCode' },
  { where: 'README: seed 002 example', from: '// seed 002: literal, case-insensitive, ', to: ' ignored, 50 results.', api: 'grep' },
  { where: 'README: seed 004', from: "use seed 004's exclusions (`", to: '`) on top of', api: 'globFiles' },
  { where: 'README: seed 001', from: "seed 001's fixed exclusions (`", to: '`, not switchable', api: 'survey' },
  { where: 'README: contract', from: 'symlinks never followed; ', to: '\n  never searched', api: 'smartFileQuery' },
];
const IN_DTS: Omit<Statement, 'text'>[] = [
  { where: 'index.d.ts: ignore', from: 'they extend `[', to: ']`', api: 'smartFileQuery' },
  { where: 'index.d.ts: findFiles', from: '`.gitignore` respected and\n * ', to: ' always skipped', api: 'findFiles' },
  { where: 'index.d.ts: excludePatterns', from: 'on top of `.gitignore`, ', to: ' (a name without', api: 'searchCode' },
  { where: 'index.d.ts: searchCode', from: ' * `.gitignore`, ', to: ' excluded, files over 1024 KB', api: 'searchCode' },
  { where: 'index.d.ts: grep', from: '`.gitignore` plus ', to: ' ignored.', api: 'grep' },
  { where: 'index.d.ts: exploration', from: "seed 001's fixed\n// exclusions (", to: ') are always', api: 'survey' },
];
const README = BLESS ? bless('README.md', IN_README) : file('README.md');
const DTS = BLESS ? bless('index.d.ts', IN_DTS) : file('index.d.ts');
const STATEMENTS: Statement[] = [
  ...IN_README.map((s) => ({ ...s, text: README })),
  ...IN_DTS.map((s) => ({ ...s, text: DTS })),
  { where: 'CLI find', text: usage('find'), from: '.gitignore respected, ', to: ' left out, in', api: 'findFiles' },
  { where: 'CLI search', text: usage('search'), from: 'all of it), .gitignore, ', to: ' excluded, files over', api: 'searchCode' },
  ...['survey', 'scout', 'sample', 'show'].flatMap((name) => [
    { where: `CLI ${name}`, text: usage(name), from: "Left out always: .gitignore'd and hidden files, ", to: '. Case-sensitive.', api: name },
    { where: `MCP ${name}`, text: tool(name), from: 'Case-sensitive; .gitignore, hidden files, ', to: ' are always left out.', api: name },
  ]),
  { where: 'MCP glob_files', text: tool('glob_files'), from: 'in path order; skips ', to: " and .gitignore'd paths", api: 'globFiles' },
];

/** The names a list states (`**\/x/**` and `x` alike), connecting words left out. */
function names(list: string): string[] {
  const tokens = list.match(/(?:\*\*\\?\/)?[.*\w][\w.*-]*(?:\/\*\*)?/g) ?? [];
  // (A lone `*` is a JSDoc line's leader, where a list wraps.)
  return tokens.filter((t) => t !== 'and' && t !== 'plus' && t !== '*').map(bare);
}

describe('texts stating a default exclusion list', () => {
  for (const s of STATEMENTS) {
    it(`${s.where} states ${s.api}'s list`, () => {
      // Line breaks are where wrapping put them (see `locate`).
      const at = locate(s.text, s.from, s.to);
      expect(at, `${s.where}: ${JSON.stringify(s.from)} … ${JSON.stringify(s.to)} not found`).toBeDefined();
      const stated = names(s.text.slice(at![0], at![1]));
      expect([...stated].sort()).toEqual(EXCLUDES[s.api].map(bare).sort());
    });
  }

  it('a list left out of a text fails the check (the parser reads what is there)', () => {
    expect(names('`.git`, `node_modules` and `.turbo`')).toEqual(['.git', 'node_modules', '.turbo']);
    expect(names("['.git/**', '**\\/node_modules/**']")).toEqual(['.git', 'node_modules']);
    expect(names('node_modules/.git/dist')).toEqual(['node_modules', '.git', 'dist']);
  });
});

describe('restating a list (SFQ_BLESS)', () => {
  const statements = [...IN_README.map((s) => ({ ...s, text: README })), ...IN_DTS.map((s) => ({ ...s, text: DTS }))];
  /** The lines from the one the statement starts on to the one it ends on. */
  const spanned = (text: string, s: Statement) => {
    const [a, b] = locate(text, s.from, s.to)!;
    const end = text.indexOf('\n', b);
    return text.slice(text.lastIndexOf('\n', a) + 1, end < 0 ? undefined : end).split('\n');
  };
  for (const s of statements) {
    it(`${s.where}: the same list comes out as it is written`, () => {
      expect(restate(s.text, s.from, s.to, EXCLUDES[s.api])).toBe(s.text);
    });
    it(`${s.where}: a list with one more name states it, in the same style and width`, () => {
      const list = [...EXCLUDES[s.api], s.api === 'smartFileQuery' ? '**/.cache/**' : '.cache'];
      const now = restate(s.text, s.from, s.to, list);
      const [a, b] = locate(now, s.from, s.to)!;
      expect([...names(now.slice(a, b))].sort()).toEqual(list.map(bare).sort());
      const [c, d] = locate(s.text, s.from, s.to)!;
      expect(now.slice(a, b).includes('`')).toBe(s.text.slice(c, d).includes('`'));
      const width = Math.max(...spanned(s.text, s).map((l) => l.length));
      for (const line of spanned(now, s)) expect(line.length).toBeLessThanOrEqual(width);
      // Restated once, it stays as it is.
      expect(restate(now, s.from, s.to, list)).toBe(now);
      // Nothing outside the statement's lines changed.
      expect(now.slice(0, now.lastIndexOf('\n', a))).toBe(s.text.slice(0, s.text.lastIndexOf('\n', c)));
    });
  }
});
