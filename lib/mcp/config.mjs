// How long a background-capable tool call waits before its search moves to
// the background (seed 004's `timeout_seconds`). Seed 004's order: the
// runtime config (here `--timeout-seconds`), then the project config file
// at the root (`.smart-file-query.json`, else `.jaato/filesystem_query.json`,
// the files the engine reads for globFiles/grepContent), then 30 seconds.
// The file is read at every call, so an edit is seen without a restart; the
// engine validates the whole file for the tools that use it (EINVALIDCONFIG).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const CONFIG_FILES = ['.smart-file-query.json', '.jaato/filesystem_query.json'];

/**
 * The project file's `timeout_seconds` under `root`: a number, undefined
 * when no file sets it, or `{ problem }` when the file or the key is invalid.
 * @param {string} root
 * @returns {number | undefined | { problem: string }}
 */
export function configuredTimeout(root) {
  for (const name of CONFIG_FILES) {
    const file = join(root, name);
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') continue;
      return { problem: `config file '${file}' cannot be read: ${e.message}` };
    }
    let config;
    try {
      config = JSON.parse(text);
    } catch (e) {
      return { problem: `config file '${file}' is not valid JSON: ${e.message}` };
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      return { problem: `config file '${file}' must hold a JSON object` };
    }
    const value = config.timeout_seconds;
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || value < 1 || value > 86400) {
      return { problem: `config file '${file}': key 'timeout_seconds' must be an integer from 1 to 86400, got ${JSON.stringify(value)}` };
    }
    return value;
  }
  return undefined;
}

/**
 * The wait, in seconds, for a call: `--timeout-seconds` when given, else the
 * project file's, else 30. An invalid file value is reported through `warn`
 * (once per distinct problem) and skipped.
 * @param {{ root: string, timeoutSeconds?: number, warn?: (message: string) => void }} options
 */
export function timeoutSeconds({ root, timeoutSeconds: flag, warn }) {
  if (flag !== undefined) return flag;
  const configured = configuredTimeout(root);
  if (typeof configured === 'number') return configured;
  if (configured !== undefined) warn?.(`${configured.problem}; waiting the default ${DEFAULT_TIMEOUT_SECONDS} s`);
  return DEFAULT_TIMEOUT_SECONDS;
}
