'use strict';
// The package's version, read once from its package.json: index.js exports
// it and the CLI prints it (`--version`) and names the MCP server with it.
// A module of its own, without the addon, so that `--version` works when no
// native binary loads.

/** The package's version (its package.json's). */
exports.version = require('../package.json').version;
