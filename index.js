'use strict';
// smart-file-query: the public JS API. Types and docs: index.d.ts.
//
// Each export is written out (not assigned in a loop): Node's CommonJS
// named-export detection, which `import { sample } from 'smart-file-query'`
// relies on, sees only `exports.name = …` assignments.

const { queries } = require('./lib/queries.js');
const { openSession, Session } = require('./lib/session.js');
const outline = require('./lib/outline.js');

/** The module's queries: cold calls, each reading the tree anew. */
const cold = queries(undefined);

exports.smartFileQuery = cold.smartFileQuery;
exports.smartFileQuerySync = cold.smartFileQuerySync;
exports.findFiles = cold.findFiles;
exports.findFilesSync = cold.findFilesSync;
exports.searchCode = cold.searchCode;
exports.searchCodeSync = cold.searchCodeSync;
exports.grep = cold.grep;
exports.grepSync = cold.grepSync;
exports.grepContent = cold.grepContent;
exports.grepContentSync = cold.grepContentSync;
exports.globFiles = cold.globFiles;
exports.globFilesSync = cold.globFilesSync;
exports.survey = cold.survey;
exports.surveySync = cold.surveySync;
exports.scout = cold.scout;
exports.scoutSync = cold.scoutSync;
exports.sample = cold.sample;
exports.sampleSync = cold.sampleSync;
exports.show = cold.show;
exports.showSync = cold.showSync;
exports.getOutline = outline.getOutline;
exports.getOutlineSync = outline.getOutlineSync;
exports.formatOutline = outline.formatOutline;
exports.createWindowViewer = outline.createWindowViewer;
exports.WindowViewer = outline.WindowViewer;
exports.openSession = openSession;
exports.Session = Session;

/** The package's version (its package.json's). */
exports.version = require('./lib/version.js').version;
