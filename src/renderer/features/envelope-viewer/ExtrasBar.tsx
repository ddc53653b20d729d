/** `__extras__` in one line: "10 of 12 · 2 queries · limit 20 · cached", then notices and the message. */
import type { JSX } from 'react';
import { formatCount } from '../../components/format.ts';
import type { ResultSection } from '../../response/result-view.ts';

export function ExtrasBar(props: { section: ResultSection }): JSX.Element | null {
  const { extras, notices, message } = props.section;
  const parts: string[] = [];
  if (extras) {
    if (typeof extras.display === 'number' && typeof extras.filtered === 'number') parts.push(`${formatCount(extras.display)} of ${formatCount(extras.filtered)}`);
    else if (typeof extras.filtered === 'number') parts.push(`${formatCount(extras.filtered)} matching`);
    if (typeof extras.queries === 'number') parts.push(`${extras.queries} ${extras.queries === 1 ? 'query' : 'queries'}`);
    if (typeof extras.limit === 'number') parts.push(`limit ${extras.limit}`);
    if (typeof extras.offset === 'number' && extras.offset > 0) parts.push(`offset ${extras.offset}`);
    if (extras.cached) parts.push('cached');
    if (typeof extras.draw === 'number') parts.push(`draw ${extras.draw}`);
  }
  if (parts.length === 0 && notices.length === 0 && !message) return null;
  return (
    <div className="extras" data-testid="extras">
      {parts.length > 0 && <span data-testid="extras-summary">{parts.join(' · ')}</span>}
      {notices.map((n) => (
        <span key={n} className="notice">
          {n}
        </span>
      ))}
      {message && <span className="message">{message}</span>}
    </div>
  );
}
