// The benchmark's warm Node process: loads the addon once, then runs the
// requests it reads on stdin (one JSON object per line) and answers each
// with one JSON line: wall and CPU seconds, peak RSS, the seconds spent
// decoding the result into JS objects, the seconds reading every match took
// afterwards (the matches built when first read; not in the wall time), and
// a result size.
//   {tool: 'addon', cwd, options}          await smartFileQuery({...options, cwd})
//   {tool: 'addon', cwd, find}             await findFiles({...find, cwd})
//   {tool: 'rg-json', cwd, args}           spawn `rg --json …`, parse every event (what the seeds' wrappers did)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
// The JS-side decode of the compact result, timed on its own (wrapped before
// index.js loads, so that lib/native.js takes the wrapper): the addon's wall
// time splits into the native part (walk, search and encode, in Rust, on the
// worker threads) and this decode into JS objects on the main thread.
const decode = require('../lib/decode.js');
let decodeSeconds = 0;
const decodeCompact = decode.decodeCompact;
decode.decodeCompact = (compact) => {
  const t0 = performance.now();
  try {
    return decodeCompact(compact);
  } finally {
    decodeSeconds += (performance.now() - t0) / 1000;
  }
};
const { findFiles, smartFileQuery } = require('../index.js');

/** Resets the kernel's peak-RSS counter of this process (VmHWM). */
function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not permitted: the peak then covers the whole process life.
  }
}
function peakKB() {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : 0;
}
/** User + system seconds of this process's waited-for children (clock ticks). */
function childCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function rgJson(cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', ['--json', ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const matches = [];
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const event = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (event.type === 'match' || event.type === 'context') {
          matches.push({ file: event.data.path.text, line: event.data.line_number, content: event.data.lines.text, kind: event.type });
        }
      }
    });
    child.on('error', reject);
    child.on('close', () => resolve(matches));
  });
}

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const req = JSON.parse(line);
  resetPeak();
  decodeSeconds = 0;
  let result;
  const cpu0 = process.cpuUsage();
  const child0 = childCpu();
  const t0 = performance.now();
  let size;
  if (req.tool === 'addon' && req.find) {
    size = (await findFiles({ ...req.find, cwd: req.cwd })).length;
  } else if (req.tool === 'addon') {
    result = await smartFileQuery({ ...req.options, cwd: req.cwd });
    size = result.aggregate.totalMatches;
  } else {
    size = (await rgJson(req.cwd, req.args)).filter((m) => m.kind === 'match').length;
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // Reading every match afterwards (a file's many matches are built when
  // first read): timed on its own, outside the call's wall and CPU time.
  let readAll;
  if (result !== undefined) {
    const t1 = performance.now();
    let read = 0;
    for (const file of result.results) read += file.matches.length;
    readAll = (performance.now() - t1) / 1000;
    if (read !== size) throw new Error(`read ${read} matches of ${size}`);
  }
  process.stdout.write(`${JSON.stringify({
    wall,
    cpu: (cpu.user + cpu.system) / 1e6 + (childCpu() - child0),
    maxrssKB: peakKB(),
    decode: decodeSeconds,
    readAll,
    size,
  })}\n`);
}
