// Generated from the commands of crates/sfq-core (Command::ALL, src/options/catalog.rs): do not edit.
// `SFQ_BLESS=1 cargo test -p sfq-core generated` rewrites it; `cargo test` fails while it differs.
'use strict';

// Each export is written out (not assigned in a loop): Node's CommonJS
// named-export detection, which `import { sample } from 'smart-file-query'`
// relies on, sees only `exports.name = …` assignments (index.js spreads them).

const { queries } = require('../queries.js');

/** The module's queries: cold calls, each reading the tree anew. */
const cold = queries(undefined);

exports.smartFileQuery = cold.smartFileQuery;
exports.smartFileQuerySync = cold.smartFileQuerySync;
exports.findFiles = cold.findFiles;
exports.findFilesSync = cold.findFilesSync;
exports.getOutline = cold.getOutline;
exports.getOutlineSync = cold.getOutlineSync;
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
