// The README tells the truth: every flag it shows exists in a usage text of
// the product (or belongs to another tool it shows: git, rg, cargo, napi,
// the benchmarks), every `smart-file-query WORD` is a subcommand, and every
// error code it lists is one of SmartFileQueryErrorCode's.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../lib/args.mjs';
import { SUBCOMMANDS } from '../lib/cli/registry.mjs';

const root = resolve(__dirname, '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const usages = [USAGE, ...SUBCOMMANDS.map((c) => c.usage)].join('\n');
// Flags of the other tools the README shows commands of.
const OTHERS: Record<string, string> = {
  '--cached': 'git ls-files',
  '--others': 'git ls-files',
  '--exclude-standard': 'git ls-files',
  '--check': 'cargo fmt',
  '--workspace': 'cargo clippy',
  '--features': 'napi build / cargo',
  '--platform': 'napi build',
  '--release': 'napi build',
  '--files': 'rg',
  '--hidden': 'rg',
  '--json': 'rg (and outline --json, in its usage)',
  '--no-unicode': 'rg',
  '--max-filesize': 'rg',
  '--runs': 'bench/*.mjs',
  '--corpus': 'bench/*.mjs',
  '--only': 'bench/*.mjs',
  '--tools': 'bench/run.mjs',
  '--rg': 'bench/run.mjs',
  '--rg13': 'bench/run.mjs',
  '--literal-budget': 'bench/regex.mjs',
  '--part': 'bench/regex.mjs',
  '--find': 'bench/ab.mjs',
  '--seeds': 'scripts/session-diff.mjs',
  '--files': 'bench/monorepo.mjs',
  '--variants': 'bench/monorepo.mjs',
  '--fanout': 'bench/monorepo.mjs',
  '--keep': 'bench/monorepo.mjs',
  '--session-only': 'bench/monorepo.mjs',
  '--budget': 'bench/monorepo.mjs and scripts/session-diff.mjs',
  '--steps': 'scripts/session-diff.mjs',
  '--mode': 'scripts/session-diff.mjs',
  '--targets': 'scripts/build-all.mjs',
  '--target': 'napi build',
  '--omit': 'npm install',
  '--offline': 'npm install',
  '--build-from-source': 'npm rebuild (read by scripts/install.mjs)',
  '--out': 'scripts/pack.mjs',
  '--root-only': 'scripts/pack.mjs',
  '--available': 'scripts/pack.mjs',
  '--access': 'npm publish',
};

describe('the README', () => {
  it('shows only flags that exist', () => {
    const flags = [...new Set([...readme.matchAll(/(?<![\w-])--[a-zA-Z][\w-]*/g)].map((m) => m[0]))];
    expect(flags.length).toBeGreaterThan(20);
    const unknown = flags.filter((f) => !OTHERS[f] && !new RegExp(`(?<![\\w-])${f}(?![\\w-])`).test(usages));
    expect(unknown).toEqual([]);
  });

  it('names only subcommands that exist', () => {
    const names = new Set(SUBCOMMANDS.map((c) => c.name));
    const words = [...readme.matchAll(/smart-file-query ([a-z][a-z-]*)\b/g)].map((m) => m[1]);
    expect(words.length).toBeGreaterThan(5);
    // "smart-file-query.mjs" (the script it replaces) is not a command word.
    expect(words.filter((w) => !names.has(w) && w !== 'mjs')).toEqual([]);
    for (const c of SUBCOMMANDS) expect(readme, c.name).toContain(`smart-file-query ${c.name}`);
  });

  it('lists only error codes of SmartFileQueryErrorCode, and all of them', () => {
    const dts = readFileSync(resolve(root, 'index.d.ts'), 'utf8');
    const union = dts.slice(dts.indexOf('export type SmartFileQueryErrorCode'), dts.indexOf('(string & {})'));
    const typed = new Set([...union.matchAll(/'(E[A-Z]+)'/g)].map((m) => m[1]));
    const listed = new Set([...readme.matchAll(/`(E[A-Z]{4,})`/g)].map((m) => m[1]));
    // The MCP layer's own codes (not the JS API's) are documented with it.
    const mcp = new Set(['ETOOMANYTASKS', 'ENOTASK']);
    expect([...listed].filter((c) => !typed.has(c) && !mcp.has(c))).toEqual([]);
    expect([...typed].filter((c) => !listed.has(c))).toEqual([]);
  });
});

describe("the README's size of the addon", () => {
  it('is within 5% of the .node this build made', async () => {
    const { statSync, readdirSync } = await import('node:fs');
    const node = readdirSync(root).find((f) => /^smart-file-query\..*\.node$/.test(f));
    expect(node, 'the addon is built before the tests').toBeDefined();
    const m = /`\.node` is [\d.]+ MB \(([\d,]+) bytes/.exec(readme);
    expect(m).not.toBeNull();
    const stated = Number(m![1].replace(/,/g, ''));
    const actual = statSync(resolve(root, node!)).size;
    expect(Math.abs(actual - stated) / actual).toBeLessThan(0.05);
  });
});

describe("the README's table of platform packages", () => {
  it('names every platform package, with each prebuilt present in npm/ within 5% of the size stated', async () => {
    const { existsSync, statSync } = await import('node:fs');
    // @ts-expect-error: a plain ES module without types
    const { PLATFORMS, nodeFile } = await import('../scripts/platforms.mjs');
    for (const p of PLATFORMS as { platform: string }[]) {
      const row = new RegExp(`^\\| \`smart-file-query-${p.platform}\` \\|[^|]+\\| ([\\d,]+) \\|`, 'm').exec(readme);
      expect(row, `a README row for smart-file-query-${p.platform}`).not.toBeNull();
      const file = resolve(root, 'npm', p.platform, nodeFile(p));
      if (!existsSync(file)) continue;
      const stated = Number(row![1].replace(/,/g, ''));
      const actual = statSync(file).size;
      expect(Math.abs(actual - stated) / actual, p.platform).toBeLessThan(0.05);
    }
  });
});
