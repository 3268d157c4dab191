// `smart-file-query survey|scout|sample|show`: seed 001's bounded exploration
// protocol from a shell. Each prints the `text` of the JS API's result and
// exits 0 for an answer (warnings included), 1 for a refusal asking to narrow
// (show over 20 matching lines, the scan limit), 2 for invalid input with a
// one-line reason on stderr.

import { UsageError, readFlags } from '../args.mjs';
import { applyFlag, CWD_FLAG, CWD_HELP, CwdError, exclusionWords, flagNames, flagRows, flagSpec, lib, PROGRAM, resolveCwd, wrap } from './common.mjs';

const MODES = `Query modes (one at most): fixed string by default;
  --identifier            no ASCII identifier character ([A-Za-z0-9_]) on
                          either side of the match
  --word                  no word character on either side (as rg -w)`;
const REGEX = `  --regex                 a JavaScript regex (an unescaped | is refused:
                          compare alternatives with survey)`;
const COMMON = `${wrap(
  "PATHs are files or folders under the current directory (--cwd's, when given; default: all of it). Left out " +
    `always: .gitignore'd and hidden files, ${exclusionWords('survey')}. Case-sensitive. "Matches" are matching ` +
    'lines. No output exceeds 40 lines or 8,000 bytes.',
)}

Exit status: 0 for an answer (warnings included), 1 for a refusal asking to
narrow, 2 for invalid input (one line on stderr).
`;

const SURVEY_USAGE = `Usage: smart-file-query survey --term T [--term T ...] [PATH ...]

Step 1 of the protocol: compares up to 12 fixed terms over up to 8 paths
(each term/path pair counted, one pass over the files), without match bodies:
overall[term,matches,files,dominant_path] and by_path[path,term,matches,files]
(zero rows left out). Without PATH, the paths compared are the top-level
entries. Warns when one term has 80% of the matching lines, when a term is
broad, and about fixed terms of 3 characters or fewer.

${MODES}
${flagRows('survey')}
${CWD_HELP}
  -h, --help              print this help

${COMMON}`;

const SCOUT_USAGE = `Usage: smart-file-query scout QUERY [PATH ...]

Step 2: one query's distribution: matching lines, files and folders, then
top_directories[path,matches] and top_files[path,matches].

${MODES}
${REGEX}
${flagRows('scout')}
${CWD_HELP}
  -h, --help              print this help

${COMMON}`;

const SAMPLE_USAGE = `Usage: smart-file-query sample QUERY [PATH ...]

Step 3: representative clusters, chosen deterministically: matching lines
within 2 lines of each other form a cluster shown by its first match with one
line of context; busy files offer their first, middle and last clusters; files
take turns. For more context, narrow to one file and use show.

${MODES}
${REGEX}
${flagRows('sample')}
${CWD_HELP}
  -h, --help              print this help

${COMMON}`;

const SHOW_USAGE = `Usage: smart-file-query show QUERY FILE [--context N]

Step 4: snippets of QUERY in one FILE (a folder is refused), with context.
More than 20 matching lines is refused (exit 1): narrow the query first.

${MODES}
${REGEX}
${flagRows('show')}
${CWD_HELP}
  -h, --help              print this help

${COMMON}`;

/** An engine message in the command line's terms, on one line. */
function oneLine(command, message) {
  const flags = flagNames(command, { paths: 'PATH', query: 'QUERY', file: 'FILE', mode: 'the mode' });
  let m = message.replace(new RegExp(`^${command}: `), '');
  m = m.replace(/option '([A-Za-z]+)'/g, (all, name) => flags[name] ?? all);
  m = m.replace(/mode 'regex'/, '--regex');
  m = m.replace(/\s+/g, ' ');
  return m.length > 400 ? `${m.slice(0, 399)}…` : m;
}

function subcommand(name, summary, usage, words) {
  const regexOk = name !== 'survey';
  async function run(argv, io) {
    const fail = (message) => {
      io.stderr(`${PROGRAM} ${name}: ${oneLine(name, message)}\n`);
      return 2;
    };
    const options = {};
    const modes = [];
    const cwd = [];
    let help = false;
    let positionals;
    try {
      positionals = readFlags(
        argv,
        {
          strings: [...flagSpec(name).strings, ...CWD_FLAG.strings],
          booleans: [...flagSpec(name).booleans, 'identifier', 'word', 'help', ...(regexOk ? ['regex'] : [])],
          shorts: { h: 'help', ...CWD_FLAG.shorts },
          positionals: true,
        },
        (flag, value) => {
          switch (flag) {
            case 'help': help = help || value; break;
            case 'identifier': case 'word': case 'regex': if (value) modes.push(flag); break;
            case 'cwd': cwd.push(value); break;
            default: applyFlag(name, flag, value, options);
          }
        },
      );
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      let message = e.message;
      if (name === 'survey' && /^Unknown option '--regex'/.test(message)) {
        message = '--regex is not accepted: survey compares fixed terms; use scout --regex for one pattern';
      } else if (name !== 'show' && /^Unknown option '--context'/.test(message)) {
        message = `--context is not accepted by ${name}; narrow to one file and use show QUERY FILE --context N`;
      }
      return fail(`${message} (see ${PROGRAM} ${name} --help)`);
    }
    if (help) {
      await io.stdout(usage);
      return 0;
    }
    const unique = [...new Set(modes)];
    if (unique.length > 1) return fail(`choose one mode: ${unique.map((m) => `--${m}`).join(' or ')}`);
    if (unique.length === 1) options.mode = unique[0];
    const wordsError = words(positionals, options);
    if (wordsError) return fail(`${wordsError} (see ${PROGRAM} ${name} --help)`);
    if (cwd.length > 0) {
      try {
        options.cwd = resolveCwd(cwd);
      } catch (e) {
        if (!(e instanceof CwdError)) throw e;
        return fail(e.message);
      }
    }
    let result;
    try {
      result = await lib('../index.js')[name](options);
    } catch (e) {
      return fail(`${e.message}${e.code ? ` (${e.code})` : ''}`);
    }
    await io.stdout(result.text);
    return result.exitCode;
  }
  return { name, summary, usage, run };
}

export const survey = subcommand(
  'survey',
  'Protocol step 1: compare up to 12 terms over up to 8 paths (counts only)',
  SURVEY_USAGE,
  (words, options) => {
    if (!options.terms?.length) return 'give at least one --term';
    if (words.length > 0) options.paths = words;
    return undefined;
  },
);

export const scout = subcommand(
  'scout',
  "Protocol step 2: one query's matches by folder and file",
  SCOUT_USAGE,
  (words, options) => {
    if (words.length === 0) return 'expected QUERY [PATH ...]';
    [options.query] = words;
    if (words.length > 1) options.paths = words.slice(1);
    return undefined;
  },
);

export const sample = subcommand(
  'sample',
  'Protocol step 3: representative match clusters with one line of context',
  SAMPLE_USAGE,
  (words, options) => {
    if (words.length === 0) return 'expected QUERY [PATH ...]';
    [options.query] = words;
    if (words.length > 1) options.paths = words.slice(1);
    return undefined;
  },
);

export const show = subcommand(
  'show',
  'Protocol step 4: snippets of a query in one file (at most 20 matching lines)',
  SHOW_USAGE,
  (words, options) => {
    if (words.length !== 2) return `expected QUERY FILE, got ${words.length} word${words.length === 1 ? '' : 's'}`;
    [options.query, options.file] = words;
    return undefined;
  },
);
