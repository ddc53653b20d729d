/**
 * The raw body's JSON tokens for its colours: keys, strings, numbers and literals as character
 * ranges of the text (the text itself is never changed or wrapped in elements, so selecting and
 * copying it gives exactly what the server sent). Anything that is not JSON is tokenized as far as
 * it looks like it; a body cut short just ends.
 */

export type TokenKind = 'key' | 'string' | 'number' | 'literal';

export interface Token {
  start: number;
  end: number;
  kind: TokenKind;
}

/** Past this many tokens the rest of a body stays uncoloured (a few hundred KB of records). */
export const TOKEN_LIMIT = 100_000;

const TOKEN = /"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g;
const COLON = /\s*:/y;

export function jsonTokens(text: string, limit = TOKEN_LIMIT): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null && tokens.length < limit; match = TOKEN.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const first = match[0][0];
    let kind: TokenKind;
    if (first === '"') {
      // A string followed by a colon is an object's key.
      COLON.lastIndex = end;
      kind = COLON.test(text) ? 'key' : 'string';
    } else kind = first === 't' || first === 'f' || first === 'n' ? 'literal' : 'number';
    tokens.push({ start, end, kind });
  }
  return tokens;
}
