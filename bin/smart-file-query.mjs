#!/usr/bin/env node
// smart-file-query CLI shim: parse argv, call the addon, set the exit code
// (process.exitCode, not process.exit, so stdout is flushed).
import { main } from '../lib/cli.mjs';

process.exitCode = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
