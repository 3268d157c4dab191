#!/usr/bin/env node
// smart-file-query CLI shim: parse argv, call the addon, set the exit code
// (process.exitCode, not process.exit, so stdout is flushed). processIo ends
// the process quietly, exit 0, when stdout is closed by its reader (EPIPE).
import { main, processIo } from '../lib/cli.mjs';

process.exitCode = await main(process.argv.slice(2), processIo());
