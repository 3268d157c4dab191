// index.d.ts documents exactly the options the engine declares (its option
// tables, generated into lib/generated/options.js): each API's options
// interface, with the interfaces it extends, has one property per declared
// option (and the JS-only `signal` / `onProgress`), and a doc comment that
// states a default states the declared one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface Declared {
  name: string;
  type: string;
  default?: unknown;
  defaultText?: string;
}
const { OPTIONS } = createRequire(import.meta.url)('../lib/generated/options.js') as {
  OPTIONS: Record<string, { options: Declared[] }>;
};

const path = resolve(__dirname, '..', 'index.d.ts');
const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);

/** Every interface of index.d.ts: its properties (with their doc comments) and what it extends. */
const interfaces = new Map<string, { props: Map<string, string>; bases: string[] }>();
source.forEachChild((node) => {
  if (!ts.isInterfaceDeclaration(node)) return;
  const props = new Map<string, string>();
  for (const m of node.members) {
    if (!ts.isPropertySignature(m) || !m.name) continue;
    // (`*\/` is how a doc comment writes `*/`.)
    const docs = ts.getJSDocCommentsAndTags(m).map((d) => d.getText(source)).join('\n').replaceAll('\\/', '/');
    props.set(m.name.getText(source), docs);
  }
  const bases = (node.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText(source)));
  interfaces.set(node.name.text, { props, bases });
});

/** An interface's properties, its bases' included. */
function properties(name: string): Map<string, string> {
  const i = interfaces.get(name);
  if (!i) throw new Error(`index.d.ts has no interface ${name}`);
  const out = new Map<string, string>();
  for (const base of i.bases) for (const [k, v] of properties(base)) out.set(k, v);
  for (const [k, v] of i.props) out.set(k, v);
  return out;
}

/** Each API's options interface, and the declared options its JS signature takes outside it. */
const APIS: [string, string, string[]][] = [
  ['smartFileQuery', 'SmartFileQueryOptions', []],
  ['searchCode', 'SearchOptions', ['query']],
  ['grep', 'GrepOptions', []],
  ['findFiles', 'FindFilesOptions', []],
  ['globFiles', 'GlobFilesOptions', []],
  ['grepContent', 'GrepContentOptions', []],
  ['survey', 'SurveyOptions', []],
  ['scout', 'ScoutOptions', []],
  ['sample', 'ScoutOptions', []],
  ['show', 'ShowOptions', []],
  ['getOutline', 'OutlineOptions', ['path']],
  ['openSession', 'SessionOptions', []],
];
/** Options of the JS API only (not sent to the engine). */
const JS_ONLY = new Set(['signal', 'onProgress']);

/** How a text may state a declared default. */
function spellings(o: Declared): string[] | undefined {
  if (typeof o.default === 'boolean') return [String(o.default)];
  if (typeof o.default === 'number') {
    const n = o.default;
    return n >= 1 << 20 && n % (1 << 20) === 0 ? [String(n), `${n / (1 << 20)} MiB`] : [String(n), n.toLocaleString('en-US')];
  }
  if (o.default === '') return ["''", '`\'\'`'];
  if (typeof o.default === 'string') return [o.default];
  return undefined;
}

describe('index.d.ts against the declared options', () => {
  for (const [api, name, outside] of APIS) {
    it(`${name} has exactly ${api}'s declared options`, () => {
      const props = properties(name);
      const documented = [...props.keys()].filter((k) => !JS_ONLY.has(k)).sort();
      const declared = OPTIONS[api].options.map((o) => o.name).filter((n) => !outside.includes(n)).sort();
      expect(documented).toEqual(declared);
    });

    it(`${name}'s docs state ${api}'s declared defaults`, () => {
      const props = properties(name);
      for (const o of OPTIONS[api].options) {
        const doc = props.get(o.name);
        const spelled = spellings(o);
        if (!doc || !spelled || !/default/i.test(doc)) continue;
        expect(
          spelled.some((s) => doc.includes(s)),
          `${name}.${o.name}: ${JSON.stringify(doc)} does not state the declared default ${JSON.stringify(o.default)}`,
        ).toBe(true);
      }
    });
  }

  it('reads what index.d.ts says (a property it lacks is missing here too)', () => {
    expect(properties('SearchOptions').has('maxResults')).toBe(true);
    expect(properties('SearchOptions').has('cwd')).toBe(true); // from AgentSearchCommonOptions
    expect(properties('SearchOptions').has('noSuchOption')).toBe(false);
  });
});
