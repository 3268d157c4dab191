// The texts that state a default exclusion list state the one the engine
// uses: each list is one constant (crates/sfq-core/src/excludes.rs), carried
// to JS by the generated lib/generated/options.js; the MCP descriptions are
// built from it, and every other statement (README, index.d.ts, the CLI
// usages, the MCP descriptions too) is checked against it here. A new
// default exclusion is one line in excludes.rs; this test then names each
// text to update.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../lib/cli/registry.mjs';
import { TOOLS } from '../lib/mcp/tools.mjs';

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

const README = file('README.md');
const DTS = file('index.d.ts');
const STATEMENTS: Statement[] = [
  { where: 'README: find', text: README, from: '(`.gitignore` respected, ', to: ' left out, 100 entries', api: 'findFiles' },
  { where: 'README: seed 003 example', text: README, from: '// seed 003: literal, smart case, .gitignore + ', to: ' excluded, 50 results.', api: 'searchCode' },
  { where: 'README: seed 002 example', text: README, from: '// seed 002: literal, case-insensitive, ', to: ' ignored, 50 results.', api: 'grep' },
  { where: 'README: seed 004', text: README, from: "use seed 004's exclusions (`", to: '`) on top of', api: 'globFiles' },
  { where: 'README: seed 001', text: README, from: "seed 001's fixed exclusions (`", to: '`, not switchable', api: 'survey' },
  { where: 'README: contract', text: README, from: 'symlinks never followed; ', to: '\n  never searched', api: 'smartFileQuery' },
  { where: 'index.d.ts: ignore', text: DTS, from: 'they extend `[', to: ']`', api: 'smartFileQuery' },
  { where: 'index.d.ts: findFiles', text: DTS, from: '`.gitignore` respected and\n * ', to: ' always skipped', api: 'findFiles' },
  { where: 'index.d.ts: excludePatterns', text: DTS, from: 'on top of `.gitignore`, ', to: ' (a name without', api: 'searchCode' },
  { where: 'index.d.ts: searchCode', text: DTS, from: ' * `.gitignore`, ', to: ' excluded, files over 1024 KB', api: 'searchCode' },
  { where: 'index.d.ts: grep', text: DTS, from: '`.gitignore` plus ', to: ' ignored.', api: 'grep' },
  { where: 'index.d.ts: exploration', text: DTS, from: "seed 001's fixed\n// exclusions (", to: ') are always', api: 'survey' },
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
  return tokens.filter((t) => t !== 'and' && t !== 'plus').map(bare);
}
const bare = (glob: string) => glob.replace(/^\*\*\\?\//, '').replace(/\/\*\*$/, '');

describe('texts stating a default exclusion list', () => {
  for (const s of STATEMENTS) {
    it(`${s.where} states ${s.api}'s list`, () => {
      // Line breaks are where wrapping put them: any run of white space is one space.
      const flat = (t: string) => t.replace(/\s+/g, ' ');
      const [text, from, to] = [flat(s.text), flat(s.from), flat(s.to)];
      const at = text.indexOf(from);
      expect(at, `${s.where}: ${JSON.stringify(from)} not found`).toBeGreaterThanOrEqual(0);
      const end = text.indexOf(to, at + from.length);
      expect(end, `${s.where}: ${JSON.stringify(to)} not found after it`).toBeGreaterThan(at);
      const stated = names(text.slice(at + from.length, end));
      expect([...stated].sort()).toEqual(EXCLUDES[s.api].map(bare).sort());
    });
  }

  it('a list left out of a text fails the check (the parser reads what is there)', () => {
    expect(names('`.git`, `node_modules` and `.turbo`')).toEqual(['.git', 'node_modules', '.turbo']);
    expect(names("['.git/**', '**\\/node_modules/**']")).toEqual(['.git', 'node_modules']);
    expect(names('node_modules/.git/dist')).toEqual(['node_modules', '.git', 'dist']);
  });
});
