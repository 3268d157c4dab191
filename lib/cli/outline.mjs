// `smart-file-query outline FILE [--json] [--imports block|each|none]`: a
// file's outline (getOutline), formatted as text, or the object as JSON.

import { UsageError, readFlags } from '../args.mjs';
import { renderOutline } from '../render/outline.mjs';
import { CWD_FLAG, CwdError, lib, resolveCwd, usageFailure } from './common.mjs';

export const OUTLINE_USAGE = `Usage: smart-file-query outline FILE [--json] [--imports MODE]

Prints the outline (skeleton) of FILE: classes, functions and methods with
their parameters, interfaces, types... with their line ranges, members
indented. Parsed with tree-sitter for TypeScript, TSX, JavaScript, Python,
Rust, Go, Java, C and C++; other text files get a best-effort outline marked
approximate.

  --json             print the outline object (getOutline's result) as JSON
  --imports MODE     block (default): each run of consecutive imports is one
                     line, \`imports (N): module, module, …\`; each: one line
                     per import; none: no imports
  -C, --cwd <dir>    run in <dir> (relative to the current directory):
                     FILE is relative to it
  -h, --help         print this help
`;

const IMPORT_MODES = ['block', 'each', 'none'];

async function run(argv, io) {
  let json = false;
  let help = false;
  let imports;
  const cwd = [];
  let files;
  try {
    const spec = { strings: [...CWD_FLAG.strings, 'imports'], booleans: ['json', 'help'], shorts: { h: 'help', ...CWD_FLAG.shorts }, positionals: true };
    files = readFlags(argv, spec, (name, value) => {
      if (name === 'json') json = value;
      else if (name === 'cwd') cwd.push(value);
      else if (name === 'imports') {
        if (!IMPORT_MODES.includes(value)) throw new UsageError(`--imports must be block, each or none; got '${value}'`);
        imports = value;
      } else help = help || value;
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, 'outline', e.message, OUTLINE_USAGE);
  }
  if (help) {
    await io.stdout(OUTLINE_USAGE);
    return 0;
  }
  if (files.length !== 1) {
    return usageFailure(io, 'outline', `expected exactly one FILE, got ${files.length}`, OUTLINE_USAGE);
  }
  const { getOutline } = lib('outline.js');
  let text;
  try {
    const options = {};
    if (cwd.length > 0) options.cwd = resolveCwd(cwd);
    if (imports !== undefined) options.imports = imports;
    const result = await getOutline(files[0], options);
    text = json ? JSON.stringify(result) : `${renderOutline(result)}\n`;
  } catch (e) {
    io.stderr(`smart-file-query outline: ${e.message}${e instanceof CwdError ? '' : ` (${e.code})`}\n`);
    return 1;
  }
  await io.stdout(text);
  return 0;
}

export default {
  name: 'outline',
  summary: "Print a file's outline: classes, functions, methods... with line ranges",
  usage: OUTLINE_USAGE,
  run,
};
