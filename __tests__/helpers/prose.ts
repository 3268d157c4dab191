// Rewriting a text's statement of an exclusion list in its own style: what
// `SFQ_BLESS=1 npx vitest run __tests__/prose.test.ts` does to README.md and
// index.d.ts after a default list of crates/sfq-core/src/excludes.rs changed.

/** A name without its glob frame (`**\/x/**` and `x` alike). */
export const bare = (glob: string) => glob.replace(/^\*\*\\?\//, '').replace(/\/\*\*$/, '');

/**
 * Where a statement sits in a raw text: the list's start and end offsets.
 * A run of white space in `from` or `to` stands for any, a line break with
 * its line's leader (a JSDoc `*`, a `//`) included.
 */
export function locate(text: string, from: string, to: string): [number, number] | undefined {
  const space = String.raw`(?:[ \t]*\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*|[ \t]+)`;
  const pattern = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, space), 'g');
  const f = pattern(from);
  const m = f.exec(text);
  if (!m) return undefined;
  const t = pattern(to);
  t.lastIndex = m.index + m[0].length;
  const n = t.exec(text);
  return n ? [m.index + m[0].length, n.index] : undefined;
}

/** The leader of a wrapped line: indentation, then a JSDoc `*` or a `//`. */
const LEADER = /^[ \t]*(?:\*|\/\/)?[ \t]*/;

/**
 * `list` (the constant's entries) on one line as `old` states its list: the
 * same quoting (backticks, or single-quoted globs as in a JS array) and
 * separator (`, ` with ` and ` before the last when `old` has it, ` + `,
 * `/`, or spaces).
 */
export function styled(old: string, list: string[]): string {
  const flat = old.replace(/\n[ \t]*(?:\*|\/\/)?[ \t]*/g, ' ');
  const glob = flat.trimStart().startsWith("'");
  const items = glob
    ? list.map((g) => `'${g.replace(/\*\*\//g, '**\\/')}'`)
    : list.map(bare).map((n) => (flat.includes('`') ? `\`${n}\`` : n));
  if (flat.includes(' + ')) return items.join(' + ');
  if (!/\s/.test(flat) && flat.includes('/')) return items.join('/');
  if (flat.includes(', ') || / and /.test(flat)) {
    const and = / and /.test(flat) && items.length > 1;
    return and ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join(', ');
  }
  return items.join(' ');
}

/**
 * `text` with the list of the statement between `from` and `to` restated as
 * `list` (see {@link styled}); the list and the rest of the line it ends on
 * are wrapped at the width of the lines it spanned, each new line starting
 * with the leader of those lines. A list already stated this way comes out
 * as it was.
 */
export function restate(text: string, from: string, to: string, list: string[]): string {
  const at = locate(text, from, to);
  if (!at) return text;
  const [a, b] = at;
  const start = text.lastIndexOf('\n', a) + 1;
  const end = text.indexOf('\n', b) < 0 ? text.length : text.indexOf('\n', b);
  const width = Math.max(...text.slice(start, end).split('\n').map((l) => l.length));
  const old = text.slice(a, b);
  // (A line opening a JSDoc comment goes on with ` * ` lines.)
  const head = text.slice(start, a);
  const opened = head.match(/^([ \t]*)\/\*\*/)?.[1];
  const leader =
    old.match(/\n([ \t]*(?:\*|\/\/)?[ \t]*)/)?.[1] ?? (opened !== undefined ? `${opened} * ` : head.match(LEADER)![0]);
  const words = (styled(old, list) + text.slice(b, end)).split(' ');
  const lines: string[] = [];
  let current = text.slice(start, a) + words[0];
  for (const word of words.slice(1)) {
    if (current.length + 1 + word.length > width && current.trim() !== leader.trim()) {
      lines.push(current);
      current = leader + word;
    } else current += ' ' + word;
  }
  lines.push(current);
  return text.slice(0, start) + lines.join('\n') + text.slice(end);
}
