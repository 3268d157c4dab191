// A token count for the MCP result budget, without a tokenizer: an estimate
// of o200k (GPT-4o's and later models' encoding) meant to err high, so that
// an answer the estimate lets through is within the budget in real tokens.
//
// The text is cut into pieces as o200k's own pre-tokenizer cuts it (a word,
// its camel-case parts apart, with the one character before it; up to three
// digits; a run of punctuation; a run of white space), and each piece is
// priced: white space and a group of ASCII digits 1; punctuation 1 for two
// characters and one more for every 2 after (regular expressions in source
// code, dense with `\`, `(?:` and `|`, were counted 3% low at every 2.5); a
// word of ASCII letters 1.2,
// plus 0.7 for every pair of letters that is not among the 200 pairs most
// frequent in o200k's own English words (a word of rare pairs, base64 or a
// foreign language, splits into more tokens), plus 0.8 behind a mark other
// than a space (`/perf`, `-events`, `,core`: the Linux tree's paths were
// counted 1.17× low without it, its CSV files 3% low with 0.5), plus one for
// every 8 letters past 6; a word in capitals 1 + a third of its letters
// (+ 0.8 behind such a mark); a single letter behind one 2; a character outside
// ASCII 1 (two UTF-8 bytes), 1.5 (Han, kana, Hangul), 3 (other three-byte
// ones) or 4 (four bytes: o200k spells those byte by byte), plus one a piece.
// The sum, rounded up, is the estimate: 1.33× o200k's count on this
// repository's files, 2 to 10× on text in non-Latin scripts.
//
// __tests__/tokens.test.ts checks that it is at least o200k's count
// (gpt-tokenizer, a dev dependency) on the tools' texts, on the files of
// the package's own tree and of the bench corpora when present, on other
// scripts and random identifiers; bench/tokens.mjs prints both counts of
// the MCP tools' answers side by side.

/** o200k's pre-tokenizer pattern (its regex, less the contractions). */
const PIECE =
  /[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/**
 * The 200 letter pairs most frequent in o200k's tokens that are ASCII words
 * of three letters or more (a leading space allowed), most frequent first,
 * ties in alphabetical order (tokens.test.ts derives them again from
 * gpt-tokenizer's o200k).
 */
export const COMMON_PAIRS_TEXT =
  'ereninreteesonantiarntatstleraalngorderiedlicotaitissemeelnelaroiochicndveasmagetrtoienadinsetsiunurprcapeceila' +
  'dheacllamecniemoshaolomrspalomirtssiadaoupoeausidncbectciutsaimaiirigdotssomoviabhothagkeulscnotuhibaapmpfieiotga' +
  'ivspsuvaplbleeshueegquopauooumwabiodttockabordlugrfeakpilywecucrruexnnuifogickrmepevbrvorrfaipavrnaaclltryuaduovk' +
  'iayiftyogowmbbuucguzeikibizgommppefwimurgkohtlsjeptupobrcnupuff';
const COMMON_PAIRS = new Set(COMMON_PAIRS_TEXT.match(/../g));

const ASCII = /^[\x00-\x7f]*$/;
const LETTER = /\p{L}/u;
const DIGIT = /^\p{N}/u;
const SPACE = /^\s+$/;
const NOT_LETTER = /[^A-Za-z]/g;
const UPPER = /^[A-Z]+$/;

function wordPrice(piece) {
  const letters = piece.replace(NOT_LETTER, '');
  // A word behind punctuation other than a space (`/perf`, `-events`, `.json`):
  // o200k often keeps the mark apart (`,core` is two tokens), and always
  // before a single letter (`|B`: the Linux tree's `(97|9A|B7|BA)` CPU
  // model lists were counted 3% low).
  const behind = /^[^\sA-Za-z]/.test(piece) ? 0.8 : 0;
  if (behind && letters.length === 1) return 2;
  if (letters.length > 1 && UPPER.test(letters)) return 1 + behind + letters.length / 3;
  const w = letters.toLowerCase();
  let rare = 0;
  for (let i = 0; i + 1 < w.length; i++) if (!COMMON_PAIRS.has(w.slice(i, i + 2))) rare++;
  return 1.2 + behind + 0.7 * rare + Math.max(0, w.length - 6) / 8;
}

function nonAsciiPrice(ch) {
  const cp = ch.codePointAt(0);
  if (cp < 0x80) return 0;
  if (cp < 0x800) return 1;
  if (cp >= 0x10000) return 4;
  // Han, kana and Hangul syllables: o200k has many of them whole.
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0xac00 && cp <= 0xd7af) ? 1.5 : 3;
}

function piecePrice(piece) {
  if (LETTER.test(piece)) {
    if (ASCII.test(piece)) return wordPrice(piece);
    let price = 1;
    for (const ch of piece) price += nonAsciiPrice(ch) || 1 / 3;
    return price;
  }
  if (SPACE.test(piece)) return 1;
  if (DIGIT.test(piece) && ASCII.test(piece)) return 1;
  let price = Math.max(1, 1 + (piece.length - 2) / 2);
  if (!ASCII.test(piece)) for (const ch of piece) price += nonAsciiPrice(ch);
  return price;
}

/**
 * The estimated o200k token count of `text`: never below the real count on
 * the corpora the tests measure (see above).
 * @param {string} text
 * @returns {number}
 */
export function estimateTokens(text) {
  let total = 0;
  for (const m of text.matchAll(PIECE)) total += piecePrice(m[0]);
  return Math.ceil(total);
}
