#!/usr/bin/env node
// `npm run bench`: times, interleaved and in one run, on the same corpus:
//   addon    the addon in a warm Node process (`await smartFileQuery(…)`)
//   cli      `node bin/smart-file-query.mjs …` (Node start-up included)
//   rg-json  `rg --json …` spawned from a warm Node process and every event parsed
//   rg       `rg …` alone, output to /dev/null (the first rg on PATH, or --rg PATH)
//   rg13     the same with Debian's ripgrep 13 (--rg13 PATH, default /usr/bin/rg)
//   node     the pure-Node seed-000 implementation (__tests__/oracle/seed000.mjs)
// and `node -e 0` (Node's own start-up). Prints wall and CPU medians, peak
// RSS and ratios as a Markdown table, and for the addon the part of its wall
// time spent decoding the result into JS objects (the rest is the native
// walk, search and encode); writes bench/results/<stamp>.json.
//
// Options: --runs N (default 5), --corpus linux,generated,nuttx,test262,vite,
//          --only rare,common,…, --tools addon,cli,…, --rg PATH, --rg13 PATH;
//          corpora are made by bench/corpus.mjs (nuttx, test262 and vite from
//          repositories brought by the tool library's fetch).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fetchedCorpus, generatedCorpus, linuxCorpus } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const RUNS = Number(opt('runs', '5'));
const CORPORA = opt('corpus', 'linux,generated').split(',');
const ONLY = opt('only', '')?.split(',').filter(Boolean);
const TOOLS = opt('tools', 'addon,cli,rg-json,rg,node').split(',');
const RG = { rg: opt('rg', 'rg'), rg13: opt('rg13', '/usr/bin/rg') };

// rg flags that make its candidate set as close to ours as it can be: dotfiles
// searched (git lists them), the same 256 KiB size cap, two context lines.
const RG_COMMON = ['--hidden', '--max-filesize', '256K', '-n', '-C', '2'];

// File listing only: the addon's findFiles('**/*') (files and directories),
// `rg --files`, and the pure-Node implementation's candidate listing
// (git ls-files + picomatch); the CLI and rg --json have no listing mode.
const LIST = {
  id: 'list',
  name: 'file listing only',
  find: { pattern: '**/*', maxResults: 10000000 },
  rg: ['--files'],
  node: ['--files'],
  tools: ['addon', 'rg', 'node'],
};
// The same listing without an lstat per file (findFiles' sizes: false):
// paths and types only, as `rg --files` gives paths.
const LIST_BARE = {
  id: 'list-bare',
  name: 'file listing, sizes: false',
  find: { pattern: '**/*', maxResults: 10000000, sizes: false },
  rg: ['--files'],
  tools: ['addon', 'rg', 'rg13'],
};

const WORKLOADS = {
  linux: [
    { id: 'rare', name: 'rare identifier', options: { regex: 'sched_clock_register' }, rg: ['sched_clock_register'] },
    { id: 'common', name: 'common word, maxMatches 100000', options: { regex: 'return', maxMatches: 100000 }, rg: ['return'] },
    { id: 'todo', name: 'TODO|FIXME|HACK, i', options: { regex: 'TODO|FIXME|HACK', flags: 'i', maxMatches: 100000 }, rg: ['-i', 'TODO|FIXME|HACK'] },
    { id: 'glob', name: 'glob-scoped (fs/**/*.c)', options: { regex: 'inode', glob: 'fs/**/*.c', maxMatches: 100000 }, rg: ['-g', 'fs/**/*.c', 'inode'] },
    LIST,
    LIST_BARE,
  ],
  generated: [
    { id: 'rare', name: 'rare identifier', options: { regex: 'handler_4242' }, rg: ['handler_4242'] },
    { id: 'common', name: 'common word, maxMatches 100000', options: { regex: 'value', maxMatches: 100000 }, rg: ['value'] },
    { id: 'todo', name: 'TODO|FIXME|HACK, i', options: { regex: 'TODO|FIXME|HACK', flags: 'i', maxMatches: 100000 }, rg: ['-i', 'TODO|FIXME|HACK'] },
    { id: 'glob', name: 'glob-scoped (pkg1*/**/*.ts)', options: { regex: 'async', glob: 'pkg1*/**/*.ts', maxMatches: 100000 }, rg: ['-g', 'pkg1*/**/*.ts', 'async'] },
    LIST,
    LIST_BARE,
  ],
  nuttx: [
    { id: 'rare', name: 'rare identifier', options: { regex: 'nxsched_get_stackinfo' }, rg: ['nxsched_get_stackinfo'] },
    { id: 'common', name: 'common word, maxMatches 100000', options: { regex: 'return', maxMatches: 100000 }, rg: ['return'] },
    { id: 'todo', name: 'TODO|FIXME|HACK, i', options: { regex: 'TODO|FIXME|HACK', flags: 'i', maxMatches: 100000 }, rg: ['-i', 'TODO|FIXME|HACK'] },
    { id: 'glob', name: 'glob-scoped (arch/**/*.{c,h})', options: { regex: 'spin_lock_irqsave', glob: 'arch/**/*.{c,h}', maxMatches: 100000 }, rg: ['-g', 'arch/**/*.{c,h}', 'spin_lock_irqsave'] },
    { id: 'inner', name: 'inner literal `static\\s+int\\s+\\w+_init\\(`', options: { regex: 'static\\s+int\\s+\\w+_init\\(', maxMatches: 100000 }, rg: ['static\\s+int\\s+\\w+_init\\('] },
    LIST,
    LIST_BARE,
  ],
  test262: [
    { id: 'rare', name: 'rare identifier', options: { regex: 'verifyPrimordialCallableProperty' }, rg: ['verifyPrimordialCallableProperty'] },
    { id: 'common', name: 'common word, maxMatches 100000', options: { regex: 'assert', maxMatches: 100000 }, rg: ['assert'] },
    { id: 'todo', name: 'TODO|FIXME|HACK, i', options: { regex: 'TODO|FIXME|HACK', flags: 'i', maxMatches: 100000 }, rg: ['-i', 'TODO|FIXME|HACK'] },
    { id: 'glob', name: 'glob-scoped (test/built-ins/**/*.js)', options: { regex: 'verifyProperty', glob: 'test/built-ins/**/*.js', maxMatches: 100000 }, rg: ['-g', 'test/built-ins/**/*.js', 'verifyProperty'] },
    { id: 'inner', name: 'inner literal `\\p{Lu}\\w+Error`, u', options: { regex: '\\p{Lu}\\w+Error', flags: 'u', maxMatches: 100000 }, rg: ['\\p{Lu}\\w+Error'] },
    LIST,
    LIST_BARE,
  ],
  vite: [
    { id: 'rare', name: 'rare identifier', options: { regex: 'createServerModuleRunner' }, rg: ['createServerModuleRunner'] },
    { id: 'common', name: 'common word, maxMatches 100000', options: { regex: 'import', maxMatches: 100000 }, rg: ['import'] },
    { id: 'todo', name: 'TODO|FIXME|HACK, i', options: { regex: 'TODO|FIXME|HACK', flags: 'i', maxMatches: 100000 }, rg: ['-i', 'TODO|FIXME|HACK'] },
    { id: 'glob', name: 'glob-scoped (packages/**/*.ts)', options: { regex: 'resolveConfig', glob: 'packages/**/*.ts', maxMatches: 100000 }, rg: ['-g', 'packages/**/*.ts', 'resolveConfig'] },
    LIST,
    LIST_BARE,
  ],
};
const corpusPath = (name) => (name === 'linux' ? linuxCorpus() : name === 'generated' ? generatedCorpus() : fetchedCorpus(name));

function cliArgs(options) {
  const out = [];
  for (const [k, v] of Object.entries(options)) out.push(`--${k}=${v}`);
  return out;
}

function measure(cwd, cmd) {
  return JSON.parse(execFileSync('python3', [join(HERE, 'measure.py'), '--cwd', cwd, '--', ...cmd], { encoding: 'utf8' }));
}

class Worker {
  constructor() {
    this.child = spawn(process.execPath, [join(HERE, 'worker.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }
  async run(req) {
    this.child.stdin.write(`${JSON.stringify(req)}\n`);
    const { value } = await this.lines.next();
    return JSON.parse(value);
  }
  close() {
    this.child.stdin.end();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const version = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8' }).split('\n')[0];
  const rgs = TOOLS.filter((t) => RG[t]).map((t) => `${t}: ${version(RG[t], ['--version'])}`).join(', ');
  const machine = `${cpus().length} × ${cpus()[0].model}, ${process.platform} ${process.arch}, Node ${process.version}${rgs ? `, ${rgs}` : ''}, ${new Date().toISOString().slice(0, 10)}`;
  const results = { machine, runs: RUNS, corpora: {} };
  // One warm process per in-process tool, so that one's heap does not weigh
  // on the other's time or peak RSS.
  const workers = { addon: new Worker(), 'rg-json': new Worker() };
  const startup = [];
  for (const corpusName of CORPORA) {
    if (!WORKLOADS[corpusName]) throw new Error(`unknown corpus ${corpusName}: one of ${Object.keys(WORKLOADS).join(', ')}`);
    const cwd = corpusPath(corpusName);
    const files = execFileSync('git', ['ls-files'], { cwd, maxBuffer: 1 << 28 }).toString().split('\n').length - 1;
    const bytes = Number(execFileSync('du', ['-sb', '--exclude=.git', cwd], { encoding: 'utf8' }).split('\t')[0]);
    const workloads = WORKLOADS[corpusName].filter((w) => !ONLY?.length || ONLY.includes(w.id));
    const samples = {};
    // Warm the page cache and the worker once.
    execFileSync(RG.rg, ['-c', 'x', '--hidden'], { cwd, stdio: 'ignore' });
    for (let run = 0; run < RUNS; run++) {
      startup.push(measure(cwd, [process.execPath, '-e', '0']));
      for (const w of workloads) {
        // Rotate the tool order each run so no tool always runs first.
        const tools = TOOLS.filter((t) => !w.tools || w.tools.includes(t));
        const order = tools.map((_, i) => tools[(i + run) % tools.length]);
        for (const tool of order) {
          let m;
          const rgArgs = w.find ? ['--hidden', ...w.rg] : [...RG_COMMON, ...w.rg];
          const nodeArgs = w.node ?? cliArgs(w.options ?? {});
          if (tool === 'addon') m = await workers.addon.run({ tool: 'addon', cwd, options: w.options, find: w.find });
          else if (tool === 'rg-json') m = await workers['rg-json'].run({ tool: 'rg-json', cwd, args: rgArgs });
          else if (RG[tool]) m = measure(cwd, [RG[tool], ...rgArgs]);
          else if (tool === 'cli') m = measure(cwd, [process.execPath, join(ROOT, 'bin/smart-file-query.mjs'), ...cliArgs(w.options)]);
          else if (tool === 'node') m = measure(cwd, [process.execPath, join(ROOT, '__tests__/oracle/seed000.mjs'), ...nodeArgs]);
          ((samples[w.id] ??= {})[tool] ??= []).push(m);
          process.stderr.write(`${corpusName} ${w.id} ${tool} run ${run + 1}: ${m.wall.toFixed(3)} s\n`);
        }
      }
    }
    results.corpora[corpusName] = { path: cwd, files, bytes, workloads: workloads.map((w) => ({ ...w, samples: samples[w.id] })) };
  }
  for (const w of Object.values(workers)) w.close();
  results.nodeStartup = median(startup.map((s) => s.wall));
  mkdirSync(join(HERE, 'results'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(HERE, 'results', `${stamp}.json`), JSON.stringify(results, null, 2));
  console.log(report(results));
}

export function report(results) {
  const f = (x) => (x < 10 ? x.toFixed(3) : x.toFixed(1));
  let out = `Machine: ${results.machine}; ${results.runs} interleaved runs, medians. Node start-up (\`node -e 0\`): ${f(results.nodeStartup)} s.\n`;
  for (const [name, c] of Object.entries(results.corpora)) {
    out += `\n**${name}** corpus: ${c.files} files, ${(c.bytes / 1e6).toFixed(0)} MB.\n\n`;
    out += '| workload | tool | wall s | CPU s | JS decode s | reading all matches after, s | peak RSS MB | wall ÷ rg | wall ÷ rg13 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n';
    for (const w of c.workloads) {
      const base = (t) => (w.samples[t] ? median(w.samples[t].map((s) => s.wall)) : undefined);
      const rg = base('rg');
      const rg13 = base('rg13');
      for (const [tool, s] of Object.entries(w.samples)) {
        const wall = median(s.map((x) => x.wall));
        const decode = s[0].decode === undefined ? '–' : f(median(s.map((x) => x.decode)));
        const readAll = s[0].readAll === undefined ? '–' : f(median(s.map((x) => x.readAll)));
        out += `| ${w.name} | ${tool} | ${f(wall)} | ${f(median(s.map((x) => x.cpu)))} | ${decode} | ${readAll} | ${(Math.max(...s.map((x) => x.maxrssKB)) / 1024).toFixed(0)} | ${rg ? (wall / rg).toFixed(2) : '–'} | ${rg13 ? (wall / rg13).toFixed(2) : '–'} |\n`;
      }
    }
  }
  return out;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
