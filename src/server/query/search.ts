/**
 * Compiles `search` (docs/protocol.md "`__meta__` keys"): a case-insensitive substring match over the model's search
 * fields, which the workspace resolved to readable string/text fields only.
 *
 * A term of 3+ characters first finds its candidate rows in the model's trigram FTS5 index
 * (search/fts.ts), then keeps those whose fields match the same LIKE as a scan would: the index only
 * narrows the rows, so the answer is the LIKE scan's on any data (the trigram tokenizer also folds
 * non-ASCII case, which LIKE does not). Shorter terms have no trigram and scan with LIKE.
 */
import type { SqlParam } from '../db/sql-session.ts';
import { ftsTableOf } from '../search/fts.ts';
import type { ModelDef } from '../workspace/types.ts';
import { quote } from './paths.ts';
import { textMatch } from './text-match.ts';

/** Trigrams need at least three characters (code points, as the tokenizer counts them). */
export const FTS_MIN_CHARS = 3;

export type SearchMode = 'auto' | 'like';

export function compileSearch(model: ModelDef, term: string | undefined, params: SqlParam[], mode: SearchMode = 'auto'): string | null {
  if (term === undefined || term === '' || model.search.length === 0) return term ? '0' : null;
  // FTS5 reads its query as a C string: a NUL would cut it, so such a term keeps the scan.
  const useIndex = mode === 'auto' && codePoints(term) >= FTS_MIN_CHARS && !term.includes('\u0000');
  let indexed = '';
  if (useIndex) {
    const fts = quote(ftsTableOf(model));
    params.push(ftsString(term));
    indexed = `t0."id" IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?) AND `;
  }
  const parts = model.search.map((name) => textMatch(`t0.${quote(model.fields.get(name)?.column ?? name)}`, 'icontains', term, params));
  return `(${indexed}(${parts.join(' OR ')}))`;
}

/** The term as one FTS5 string: a literal phrase, whatever operators or quotes it holds. */
export function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) if (++n >= FTS_MIN_CHARS) return n;
  return n;
}
