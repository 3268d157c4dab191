// How long a background-capable tool call waits before its search moves to
// the background (seed 004's `timeout_seconds`). Seed 004's order: the
// runtime config (here `--timeout-seconds`), then the project config file,
// then 30 seconds.
//
// The project file is the engine's: it is read and validated by the engine
// (sfq_core::project_config, through the binding's projectConfigSync), the
// one reader globFiles and grepContent use, so the wait and the searches
// always see the same file and the same values. What is the MCP layer's
// own: the flag's precedence, and that a file the engine rejects
// (EINVALIDCONFIG) does not fail the call here but is reported through
// `warn` and waited on with the default (the search itself then fails with
// that error when it reads the file). The file is read at every call, so an
// edit is seen without a restart.

import { createRequire } from 'node:module';

const { projectConfig } = createRequire(import.meta.url)('../native.js');

export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * The wait, in seconds, for a call: `--timeout-seconds` when given, else the
 * project file's `timeout_seconds`, else 30. A file the engine rejects is
 * reported through `warn` (with the engine's message) and skipped.
 * @param {{ root: string, timeoutSeconds?: number, warn?: (message: string) => void }} options
 */
export function timeoutSeconds({ root, timeoutSeconds: flag, warn }) {
  if (flag !== undefined) return flag;
  let config;
  try {
    config = projectConfig(root);
  } catch (e) {
    warn?.(`${e.message}; waiting the default ${DEFAULT_TIMEOUT_SECONDS} s`);
    return DEFAULT_TIMEOUT_SECONDS;
  }
  return config.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
}
