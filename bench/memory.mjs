#!/usr/bin/env node
// `node bench/memory.mjs [--n 10000,100000,1000000]`: peak memory of the CLI
// and of the JS API on huge outputs. The workload of issue 14: 200 files of
// 1,000 lines of 100 characters, `--regex . --contextLines 2 --maxMatches N`
// (every character is a match, so N matches come from the first files).
// Each run is a fresh process (its stdout counted by this one); its peak RSS
// (process.resourceUsage().maxRSS) is reported with the output size and the memory per output byte / match.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const NS = opt('n', '10000,100000,1000000').split(',').map(Number);
const repo = resolve(new URL('..', import.meta.url).pathname);
const tree = join(repo, '.corpus', 'huge-output');
if (!existsSync(join(tree, 'f199.txt'))) {
  mkdirSync(tree, { recursive: true });
  const line = 'x'.repeat(99);
  const text = `${Array.from({ length: 1000 }, () => line).join('\n')}\n`;
  for (let f = 0; f < 200; f++) writeFileSync(join(tree, `f${f}.txt`), text);
}
// A repository of its own (.corpus/ is ignored by this one's .gitignore).
if (!existsSync(join(tree, '.git'))) spawnSync('git', ['init', '-q', tree]);

// A child that runs the work and reports its peak RSS on stderr.
const CLI_CHILD = `
const { main, processIo } = await import(${JSON.stringify(join(repo, 'lib', 'cli.mjs'))});
const code = await main(JSON.parse(process.env.SFQ_ARGS), processIo());
process.stderr.write('\\nmaxrss ' + process.resourceUsage().maxRSS + '\\n');
process.exitCode = code;`;
const API_CHILD = `
const { smartFileQuery } = require(${JSON.stringify(join(repo, 'index.js'))});
smartFileQuery({ regex: '.', contextLines: 2, maxMatches: Number(JSON.parse(process.env.SFQ_ARGS)[0]), cwd: process.cwd() }).then((r) => {
  const matches = r.results.reduce((n, f) => n + f.matches.length, 0);
  process.stderr.write('\\nmatches ' + matches + '\\nmaxrss ' + process.resourceUsage().maxRSS + '\\n');
});`;

function measure(args, cliArgs) {
  const env = { ...process.env, SFQ_ARGS: JSON.stringify(cliArgs) };
  const r = spawnSync(process.execPath, args, { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 2 ** 32 });
  const stderr = r.stderr.toString('utf8');
  const rss = Number(/maxrss (\d+)/.exec(stderr)?.[1]) * 1024;
  return { rss, out: r.stdout.length, stderr };
}

const mb = (n) => (n / 1048576).toFixed(1);
console.log(`tree: ${tree} (200 files x 1,000 lines x 100 chars), Node ${process.version}\n`);
console.log('| N (maxMatches) | CLI output MB | CLI peak RSS MB | RSS / output byte | API peak RSS MB | API bytes / match |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const n of NS) {
  const cli = measure(['--input-type=module', '-e', CLI_CHILD], ['--regex', '.', '--contextLines', '2', '--maxMatches', String(n)]);
  const api = measure(['-e', API_CHILD], [String(n)]);
  const matches = Number(/matches (\d+)/.exec(api.stderr)?.[1]);
  console.log(
    `| ${n} | ${mb(cli.out)} | ${mb(cli.rss)} | ${(cli.rss / cli.out).toFixed(1)} | ${mb(api.rss)} | ${Math.round(api.rss / matches)} |`,
  );
}
