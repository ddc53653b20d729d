/**
 * How many of a count the envelope viewer draws. Bytes are bounded before an answer is read; these
 * bound the work by count: an answer of 50,000 errors, 50,000 SQL statements or a row of 5,000
 * columns would otherwise put that many nodes in the DOM at once and freeze the window. What is cut
 * is said in one sentence beside the view; the Raw view (and the JSON tree, for columns) has it all.
 */
import { formatCount } from '../../components/format.ts';

// The caps live with the boundary, which reads no more errors or statements than the views draw.
export { SHOWN_COLUMNS, SHOWN_ERRORS, SHOWN_SQL } from '../../response/count-caps.ts';

/** The first `limit` items, and how many were left out. */
export function firstOf<T>(items: readonly T[], limit: number): { shown: readonly T[]; cut: number } {
  return items.length <= limit ? { shown: items, cut: 0 } : { shown: items.slice(0, limit), cut: items.length - limit };
}

/** "Showing the first 500 of 50,000 errors: 49,500 more are in the Raw view." (null: nothing cut). */
export function cutSentence(shown: number, cut: number, what: string, where: string): string | null {
  if (cut <= 0) return null;
  return `Showing the first ${formatCount(shown)} of ${formatCount(shown + cut)} ${what}: ${formatCount(cut)} more ${cut === 1 ? 'is' : 'are'} in ${where}.`;
}
