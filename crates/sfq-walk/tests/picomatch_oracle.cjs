// Oracle for tests/picomatch_diff.rs: reads {picomatch, cases:[{pattern, opts}], paths}
// as JSON on stdin and prints one line per case: `E<message>` when picomatch throws,
// else `B` and one character per path (`1` when picomatch(pattern, opts)(path)).
'use strict';
const fs = require('fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const picomatch = require(input.picomatch);
const lines = input.cases.map(({ pattern, opts }) => {
  let isMatch;
  try {
    isMatch = picomatch(pattern, opts);
  } catch (e) {
    return 'E' + String(e && e.message).replace(/[\r\n]/g, ' ');
  }
  let bits = 'B';
  for (const p of input.paths) bits += isMatch(p) ? '1' : '0';
  return bits;
});
process.stdout.write(lines.join('\n') + '\n');
