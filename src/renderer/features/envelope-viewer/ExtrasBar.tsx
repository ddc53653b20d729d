/**
 * `__extras__` in one line: "10 of 12 · 2 queries · limit 20 · cached", then notices and the
 * message, marked as the server's words. The counts were checked at the boundary (each a count, and
 * none that contradicts the rows sent), so here they are only formatted.
 */
import type { JSX } from 'react';
import { formatCount } from '../../components/format.ts';
import { ServerWords } from '../../components/ServerWords.tsx';
import type { ResultSection } from '../../response/result-view.ts';

/** `own`: the answer came from the console's own server, whose words are shown plainly. */
export function ExtrasBar(props: { section: ResultSection; own: boolean }): JSX.Element | null {
  const { extras, notices, message } = props.section;
  const parts: string[] = [];
  if (extras) {
    if (extras.display !== undefined && extras.filtered !== undefined) parts.push(`${formatCount(extras.display)} of ${formatCount(extras.filtered)}`);
    else if (extras.filtered !== undefined) parts.push(`${formatCount(extras.filtered)} matching`);
    if (extras.queries !== undefined) parts.push(`${extras.queries} ${extras.queries === 1 ? 'query' : 'queries'}`);
    if (extras.limit !== undefined) parts.push(`limit ${extras.limit}`);
    if (extras.offset !== undefined && extras.offset > 0) parts.push(`offset ${extras.offset}`);
    if (extras.cached) parts.push('cached');
    if (extras.draw !== undefined) parts.push(`draw ${extras.draw}`);
  }
  // An answer an admin ran as another user (docs/protocol.md "See as") says so before anything else.
  const seenAs = typeof extras?.seenAs === 'string' ? extras.seenAs : null;
  if (parts.length === 0 && notices.length === 0 && !message && seenAs === null) return null;
  return (
    <div className="extras" data-testid="extras">
      {seenAs !== null && (
        <strong className="seen-as" data-testid="seen-as">
          seen as {seenAs}
        </strong>
      )}
      {parts.length > 0 && <span data-testid="extras-summary">{parts.join(' · ')}</span>}
      {notices.map((n, i) => (
        <span key={i} className="notice">
          Notice from the server: <ServerWords text={n} own={props.own} />
        </span>
      ))}
      {message && (
        <span className="message">
          Message from the server: <ServerWords text={message} own={props.own} />
        </span>
      )}
    </div>
  );
}
