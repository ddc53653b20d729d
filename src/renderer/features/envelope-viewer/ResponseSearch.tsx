/**
 * The search bar of a response (Ctrl/Cmd+F in the response pane): one query for the Table, JSON and
 * Raw views, whichever shows; Enter and Shift+Enter go to the next and previous match, Escape
 * closes it. The view that shows counts its matches (response-search.ts) and brings the current one
 * into view.
 */
import { useEffect, useRef, type JSX, type KeyboardEvent } from 'react';
import { formatCount } from '../../components/format.ts';

export interface SearchState {
  open: boolean;
  query: string;
  /** The current match, an index into the view's matches. */
  index: number;
  /** Bumped by Ctrl/Cmd+F, so a second press focuses the open bar again. */
  focus: number;
}

export const CLOSED_SEARCH: SearchState = { open: false, query: '', index: 0, focus: 0 };

export function ResponseSearch(props: {
  state: SearchState;
  /** The shown view's matches; null when that view is not searched (Errors, SQL). */
  count: number | null;
  limited: boolean;
  /** What the view did not search whole (long strings), said beside the count. */
  note?: string;
  onQuery: (query: string) => void;
  onStep: (direction: 1 | -1) => void;
  onClose: () => void;
}): JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [props.state.focus]);
  const { count } = props;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      props.onStep(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      // Taken here: the Query view's Escape would otherwise cancel a running query.
      e.preventDefault();
      e.stopPropagation();
      props.onClose();
    }
  };
  const where = count === null ? 'Search the Table, JSON or Raw view' : props.state.query === '' ? '' : count === 0 ? 'No match' : `${formatCount(Math.min(props.state.index, count - 1) + 1)} of ${formatCount(count)}${props.limited ? '+' : ''}`;
  return (
    <div className="response-search" role="search" aria-label="Search the response">
      <input
        ref={input}
        type="search"
        className="response-search-input"
        aria-label="Search the response"
        placeholder="Search the response"
        value={props.state.query}
        onChange={(e) => props.onQuery(e.target.value)}
        onKeyDown={onKeyDown}
        spellCheck={false}
      />
      <span className="muted small response-search-count" role="status" data-testid="search-count">
        {where}
      </span>
      {props.note && (
        <span className="muted small" data-testid="search-note">
          {props.note}
        </span>
      )}
      <button type="button" className="btn btn-small" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={!count} onClick={() => props.onStep(-1)}>
        ↑
      </button>
      <button type="button" className="btn btn-small" aria-label="Next match" title="Next match (Enter)" disabled={!count} onClick={() => props.onStep(1)}>
        ↓
      </button>
      <button type="button" className="btn btn-small" aria-label="Close search" title="Close (Escape)" onClick={props.onClose}>
        ×
      </button>
    </div>
  );
}
