#!/usr/bin/env node
// The Linux side of git.exe for Windows programs under Wine (see
// scripts/wine-git/git-shim.c): `node scripts/wine-git-bridge.mjs <spool>
// <wineprefix> <parent pid>` runs each command the shims leave in the spool
// folder with Linux's git, their Windows paths (folder, arguments, HOME and
// the like) made Linux paths by the prefix's drive links, and answers; it
// ends with its parent.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [spool, prefix, parentPid] = process.argv.slice(2);
if (!spool || !prefix || !parentPid) {
  console.error('usage: wine-git-bridge.mjs <spool> <wineprefix> <parent pid>');
  process.exit(2);
}

/** Drive letter → Linux folder, from the prefix's dosdevices links (c: → drive_c, z: → /). */
const drives = new Map();
for (const name of readdirSync(join(prefix, 'dosdevices'))) {
  if (!/^[a-z]:$/.test(name)) continue;
  try {
    drives.set(name[0], resolve(join(prefix, 'dosdevices'), readlinkSync(join(prefix, 'dosdevices', name))));
  } catch {
    // not a link
  }
}

const WINDOWS_PATH = /^([A-Za-z]):[\\/](.*)$/s;
/** A Windows absolute path as a Linux one; anything else as it is. */
function linuxPath(text) {
  const m = WINDOWS_PATH.exec(text);
  const base = m && drives.get(m[1].toLowerCase());
  return base ? join(base, m[2].replaceAll('\\', '/')) : text;
}
/** An argument: a path, or `key=path`. */
function linuxArg(arg) {
  if (WINDOWS_PATH.test(arg)) return linuxPath(arg);
  const eq = /^([^=]*=)(.*)$/s.exec(arg);
  return eq && WINDOWS_PATH.test(eq[2]) ? eq[1] + linuxPath(eq[2]) : arg;
}
/** A Linux absolute path as Git for Windows writes one: `C:/Users/…` (drive Z: is `/`). */
function windowsPath(text) {
  let best = null;
  for (const [letter, dir] of drives) {
    const top = dir.endsWith('/') ? dir : `${dir}/`;
    if ((text === dir || text.startsWith(top)) && (best === null || dir.length > best[1].length)) best = [letter, dir];
  }
  if (best === null) return text;
  const rest = text.slice(best[1].length).replace(/^\//, '');
  return `${best[0].toUpperCase()}:/${rest}`;
}

/** The variables git reads that a test sets; the rest is this process's. */
const PASSED = /^(HOME|XDG_CONFIG_HOME|LC_ALL|LANG|TZ|GIT_[A-Z_]+)$/;

function answer(id) {
  const req = join(spool, `${id}.req`);
  const data = readFileSync(req);
  rmSync(req, { force: true });
  let at = 0;
  const field = () => {
    const end = data.indexOf(0, at);
    const s = data.subarray(at, end).toString('utf8');
    at = end + 1;
    return s;
  };
  const cwd = linuxPath(field());
  const args = Array.from({ length: Number(field()) }, () => linuxArg(field()));
  const env = { PATH: process.env.PATH };
  for (let n = Number(field()); n > 0; n--) {
    const kv = field();
    const eq = kv.indexOf('=', 1);
    const key = kv.slice(0, eq).toUpperCase();
    if (PASSED.test(key)) env[key] = linuxPath(kv.slice(eq + 1));
  }
  // Wine's drives are folders of Linux's (drive_c lies in the prefix, which
  // may lie in a repository): git must not find a repository above a drive's
  // top, as on Windows there is none.
  env.GIT_CEILING_DIRECTORIES ??= [...drives.entries()].filter(([l]) => l !== 'z').map(([, d]) => d).join(':');
  const input = data.subarray(at);
  const r = spawnSync('git', args, { cwd: existsSync(cwd) ? cwd : '/', env, input, maxBuffer: 1 << 30 });
  let out = r.stdout ?? Buffer.alloc(0);
  // rev-parse's absolute paths (--show-toplevel, --git-dir, …) as Git for Windows gives them.
  if (args.includes('rev-parse')) {
    out = Buffer.from(out.toString('utf8').split('\n').map((l) => (l.startsWith('/') ? windowsPath(l) : l)).join('\n'));
  }
  const err = r.stderr ?? Buffer.from(`git (Wine bridge): ${r.error?.message ?? 'failed'}\n`);
  const code = r.status ?? 128;
  // Failed commands are logged beside the spool, for a look when a suite fails.
  if (code !== 0) appendFileSync(join(spool, '..', 'bridge.log'), `${code} in ${cwd}: git ${args.join(' ')}\n${err.toString('utf8')}\n`);
  const tmp = join(spool, `${id}.res.tmp`);
  writeFileSync(tmp, Buffer.concat([Buffer.from(`${code}\0${out.length}\0${err.length}\0`), out, err]));
  renameSync(tmp, join(spool, `${id}.res`));
}

let busy = false;
function scan() {
  if (busy) return;
  busy = true;
  try {
    for (const name of readdirSync(spool)) if (name.endsWith('.req')) answer(name.slice(0, -4));
  } finally {
    busy = false;
  }
}
watch(spool, () => scan());
setInterval(() => {
  try {
    process.kill(Number(parentPid), 0);
  } catch {
    process.exit(0);
  }
  scan();
}, 20);
scan();
