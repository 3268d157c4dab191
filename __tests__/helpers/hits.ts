// What an MCP search tool's compact text must show: every hit of its
// structuredContent, a search's as the line `N: text` under its file's path
// line, a listing's as a line of its own (lib/mcp/texts.mjs).
import { relative } from 'node:path';

export type Hit = { path: string; line?: number; text?: string };

/** The hits of a tool's structured answer (`root`: the server's, for glob_files' paths). */
export function hitsOf(tool: string, value: any, root: string): Hit[] {
  switch (tool) {
    case 'search_code':
      return value.matches.map((m: any) => ({ path: m.path, line: m.lineNumber, text: m.content }));
    case 'grep':
      return value.matches.map((m: any) => ({ path: m.file, line: m.line, text: m.content }));
    case 'grep_content':
      return value.matches.map((m: any) => ({ path: m.file, line: m.line, text: m.text }));
    case 'smart_file_query':
      return value.results.flatMap((r: any) => r.matches.map((m: any) => ({ path: r.path, line: m.lineNumber, text: m.context.line })));
    case 'glob_files': {
      const prefix = relative(root, value.root).split('\\').join('/');
      return value.files.map((f: any) => ({ path: prefix ? `${prefix}/${f.path}` : f.path }));
    }
    case 'find_files':
      return value.files.map((f: any) => ({ path: `${f.path}${f.type === 'dir' ? '/' : ''}` }));
    case 'scroll_file':
      return value.content === '' ? [] : value.content.split('\n').map((l: string) => ({ path: value.path, line: Number(/^\d+/.exec(l)![0]), text: l.replace(/^\d+: /, '') }));
    default:
      throw new Error(`no hits for ${tool}`);
  }
}

/**
 * The hits the text does not show, as `path` or `path:line`: a listing's
 * paths one a line after the head line; a search's `line: text` lines in
 * the block that its file's path line opens (scroll_file: the lines after
 * the head line, which names the file).
 */
export function missingHits(tool: string, value: any, text: string, root: string): string[] {
  const hits = hitsOf(tool, value, root);
  const lines = text.split('\n');
  const body = lines.slice(1);
  if (tool === 'glob_files' || tool === 'find_files') {
    const listed = new Set(body);
    return hits.filter((h) => !listed.has(h.path)).map((h) => h.path);
  }
  if (tool === 'scroll_file') {
    const shown = new Set(body);
    return lines[0].startsWith(`${value.path}: `) ? hits.filter((h) => !shown.has(`${h.line}: ${h.text}`)).map((h) => `${h.path}:${h.line}`) : hits.map((h) => h.path);
  }
  // Each file's block: from its path line to the next path line.
  const blocks = new Map<string, Set<string>>();
  let block: Set<string> | undefined;
  for (const line of body) {
    if (/^\d+[:-]( |$)/.test(line) || line === '--' || line.startsWith('@ ')) block?.add(line);
    else blocks.set(line, (block = blocks.get(line) ?? new Set()));
  }
  const oneLine = (s: string) => s.replace(/\r?\n|\r/g, '\\n');
  return hits
    .filter((h) => {
      const b = blocks.get(h.path);
      return !b || !(b.has(`${h.line}: ${oneLine(h.text ?? '')}`) || (h.text === '' && b.has(`${h.line}:`)));
    })
    .map((h) => `${h.path}:${h.line}`);
}
