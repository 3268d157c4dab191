// The subcommand words, in the order the top-level --help lists them: the
// dispatcher (lib/cli.mjs) loads lib/cli/registry.mjs, and through it every
// subcommand's module, only when the first word is one of these, so the
// default command (a search, the common case) starts without them. The
// registry's list and this one are checked to agree
// (__tests__/cli-subcommands.test.ts).
export const SUBCOMMAND_NAMES = ['search', 'find', 'outline', 'survey', 'scout', 'sample', 'show', 'mcp'];
