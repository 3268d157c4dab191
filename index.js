'use strict';
// smart-file-query: the public JS API. Types and docs: index.d.ts.
//
// The queries, each with its …Sync twin, are lib/generated/api.js's (one
// per command of the engine that has an option table); the rest is named
// here. One object literal of a spread `require()` and shorthand names:
// Node's CommonJS named-export detection, which `import { sample } from
// 'smart-file-query'` relies on, reads exactly these forms.

const { formatOutline, createWindowViewer, WindowViewer } = require('./lib/outline.js');
const { openSession, Session } = require('./lib/session.js');
/** The package's version (its package.json's). */
const { version } = require('./lib/version.js');

module.exports = {
  ...require('./lib/generated/api.js'),
  formatOutline,
  createWindowViewer,
  WindowViewer,
  openSession,
  Session,
  version,
};
