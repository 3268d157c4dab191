// lib/args.mjs: seed 000's parser (also used by the pure-Node reference under
// __tests__/oracle) on node:util.parseArgs tokens, with the documented
// messages; the CLI's additions (-h, -v, --version); readFlags for subcommands.
import { describe, expect, it } from 'vitest';
import { UsageError, parseArgs, parseQueryArgs, readFlags } from '../lib/args.mjs';

function outcome(parse: (argv: string[]) => unknown, argv: string[]) {
  try {
    return parse(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
}

describe("parseArgs: seed 000's flags and messages", () => {
  const cases: Array<[string[], unknown]> = [
    [['--regex', 'a'], { help: false, options: { regex: 'a' } }],
    [['--regex=a=b', '--flags=', '--encoding', 'latin1'], { help: false, options: { regex: 'a=b', flags: '', encoding: 'latin1' } }],
    // The next word is the value, even when it looks like a flag.
    [['--regex', '--help'], { help: false, options: { regex: '--help' } }],
    [['--regex', '-h'], { help: false, options: { regex: '-h' } }],
    [['--regex', '--'], { help: false, options: { regex: '--' } }],
    [['--regex', 'a', '--glob', 'a,{b,c}', '--glob=d', '--ignore', ' x , y '], {
      help: false,
      options: { regex: 'a', glob: ['a', '{b,c}', 'd'], ignore: ['x', 'y'] },
    }],
    [['--regex', 'a', '--contextLines', ' 7 ', '--maxMatches=+3'], { help: false, options: { regex: 'a', contextLines: 7, maxMatches: 3 } }],
    [['--regex', 'a', '--includeAllContent', '--multiline=false'], { help: false, options: { regex: 'a', includeAllContent: true, multiline: false } }],
    [['--help'], { help: true }],
    [['--help=false', '--regex', 'a'], { help: false, options: { regex: 'a' } }],
    [['--help', '--help=false'], { help: true }],
    [[], 'Missing required option --regex'],
    [['--regex'], 'Missing value for --regex'],
    [['--bogus', '1'], "Unknown option '--bogus'"],
    [['--=x'], "Unknown option '--'"],
    [['---x'], "Unknown option '---x'"],
    [['--constructor'], "Unknown option '--constructor'"],
    [['--__proto__=1'], "Unknown option '--__proto__'"],
    [['--regex', 'a', 'stray'], "Unexpected argument 'stray'"],
    [['--regex', 'a', '--'], "Unexpected argument '--'"],
    [['-'], "Unexpected argument '-'"],
    [['-h'], "Unexpected argument '-h'"],
    [['-5'], "Unexpected argument '-5'"],
    [['--version'], "Unknown option '--version'"],
    [['--cwd', 'x'], "Unknown option '--cwd'"],
    [['-C', 'x'], "Unexpected argument '-C'"],
    [['--regex', 'a', '--maxMatches', '1.5'], "--maxMatches must be a finite integer, got '1.5'"],
    [['--regex', 'a', '--includeAllContent=maybe'], "--includeAllContent takes no value (or =true / =false), got 'maybe'"],
    // The first problem, in order, is the one reported.
    [['--maxMatches', 'x', '--bogus'], "--maxMatches must be a finite integer, got 'x'"],
    [['--bogus', '--maxMatches', 'x'], "Unknown option '--bogus'"],
    [['--help', '--bogus'], "Unknown option '--bogus'"],
  ];
  for (const [argv, expected] of cases) {
    it(JSON.stringify(argv), () => {
      expect(outcome(parseArgs, argv)).toEqual(expected);
    });
  }
});

describe("parseQueryArgs: the command line's additions", () => {
  const cases: Array<[string[], unknown]> = [
    [['-h'], { help: true }],
    [['-v'], { help: false, version: true }],
    [['--version'], { help: false, version: true }],
    [['--regex', 'a', '-v'], { help: false, version: true }],
    [['-hv'], { help: true }],
    [['--version', '--help'], { help: true }],
    [['--version=false', '--regex', 'a'], { help: false, options: { regex: 'a' } }],
    [['-x'], "Unexpected argument '-x'"],
    [['-h=3'], "Unexpected argument '-h=3'"],
    // -C / --cwd: every value, in order, for the command to resolve.
    [['-C', 'a', '--regex', 'x', '--cwd=b', '-Cc'], { help: false, options: { regex: 'x', cwd: ['a', 'b', 'c'] } }],
    [['--regex', '-C'], { help: false, options: { regex: '-C' } }],
    [['--regex', 'x', '-C'], 'Missing value for -C'],
    [['--regex', 'x', '--cwd'], 'Missing value for --cwd'],
    [['--regex', 'a', '--bogus'], "Unknown option '--bogus'"],
  ];
  for (const [argv, expected] of cases) {
    it(JSON.stringify(argv), () => {
      expect(outcome(parseQueryArgs, argv)).toEqual(expected);
    });
  }
});

describe('readFlags', () => {
  const spec = { strings: ['name'], booleans: ['json', 'help'], shorts: { h: 'help' }, positionals: true };
  function read(argv: string[]) {
    const flags: Array<[string, string | boolean]> = [];
    const positionals = readFlags(argv, spec, (name: string, value: string | boolean) => flags.push([name, value]));
    return { flags, positionals };
  }

  it('returns positionals in order, and every word after --', () => {
    expect(read(['a', '--json', 'b', '--name=n', '--', '--json', '-h'])).toEqual({
      flags: [['json', true], ['name', 'n']],
      positionals: ['a', 'b', '--json', '-h'],
    });
  });

  it('takes the declared one-letter aliases only', () => {
    expect(read(['-h'])).toEqual({ flags: [['help', true]], positionals: [] });
    expect(() => read(['-j'])).toThrow(new UsageError("Unexpected argument '-j'"));
  });

  it('takes an alias of a flag that takes a value: -n value and -nvalue', () => {
    const flags: Array<[string, string | boolean]> = [];
    const onFlag = (name: string, value: string | boolean) => flags.push([name, value]);
    const named = { strings: ['name'], shorts: { n: 'name' } };
    expect(readFlags(['-n', 'a', '-nb', '-n', '--json'], named, onFlag)).toEqual([]);
    expect(flags).toEqual([['name', 'a'], ['name', 'b'], ['name', '--json']]);
    expect(() => readFlags(['-n'], named, onFlag)).toThrow(new UsageError('Missing value for -n'));
  });

  it('refuses an alias of a flag it was not given', () => {
    expect(() => readFlags([], { strings: ['name'], shorts: { x: 'other' } }, () => {})).toThrow(TypeError);
  });
});
