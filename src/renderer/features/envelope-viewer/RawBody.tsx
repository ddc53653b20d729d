/**
 * The body as received. A huge one is shown from its start only (the whole of it is one click
 * away with Save); reading a slice of the Blob never decodes the rest. It stays one plain text
 * node: the JSON colours (raw-tokens.ts) and the response search's matches are highlights laid over
 * it (text-highlights.ts), so selecting and copying gives exactly the bytes shown.
 */
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import { formatBytes } from '../../components/format.ts';
import { currentOf, textMatches, type Searchable } from './response-search.ts';
import { jsonTokens, type TokenKind } from './raw-tokens.ts';
import { rawDrawn } from './raw-drawn.ts';
import { addHighlight, textRange } from './text-highlights.ts';

const SHOWN_BYTES = 512 * 1024;

/** The text node of the body (null before it is drawn). */
function textNode(pre: HTMLPreElement | null): Text | null {
  const node = pre?.firstChild;
  return node instanceof Text ? node : null;
}

export function RawBody(props: { raw: Blob } & Searchable): JSX.Element {
  const [text, setText] = useState<string | null>(null);
  const [pretty, setPretty] = useState(false);
  // Only the start of a long body is laid out until the person asks for the rest (raw-drawn.ts).
  const [drawAll, setDrawAll] = useState(false);
  const truncated = props.raw.size > SHOWN_BYTES;
  const pre = useRef<HTMLPreElement>(null);

  useEffect(() => {
    let live = true;
    void props.raw
      .slice(0, SHOWN_BYTES)
      .text()
      .then((t) => live && setText(t));
    return () => {
      live = false;
    };
  }, [props.raw]);

  const shown = useMemo(() => {
    if (!pretty || truncated || text === null) return text ?? '';
    try {
      return stringifyKeepingNumbers(parseJsonKeepingNumbers(text), 2);
    } catch {
      // Not JSON: show it as it came.
      return text;
    }
  }, [text, pretty, truncated]);

  const { search, onMatches } = props;
  const query = search?.query ?? '';
  // Searched in the whole text read, drawn as far as the current match.
  const matches = useMemo(() => textMatches(shown, query), [shown, query]);
  const current = currentOf(matches, search);
  const { drawn, cut } = rawDrawn(shown, { all: drawAll, reveal: current?.end });
  useEffect(() => onMatches?.(matches.length), [matches, onMatches]);

  // The colours: one highlight per kind of token, over the text node as drawn.
  useEffect(() => {
    const node = textNode(pre.current);
    if (!node || node.data !== drawn) return;
    const byKind = new Map<TokenKind, Range[]>();
    for (const token of jsonTokens(drawn)) {
      const list = byKind.get(token.kind) ?? [];
      list.push(textRange(node, token.start, token.end));
      byKind.set(token.kind, list);
    }
    const removers = [...byKind].map(([kind, ranges]) => addHighlight(`raw-${kind}`, ranges));
    return () => removers.forEach((remove) => remove());
  }, [drawn]);

  // The matches, the current one marked apart and scrolled to.
  useEffect(() => {
    const node = textNode(pre.current);
    const scroller = pre.current;
    if (!node || !scroller || node.data !== drawn || matches.length === 0) return;
    const others = addHighlight(
      'search-match',
      matches.filter((m) => m !== current && m.end <= drawn.length).map((m) => textRange(node, m.start, m.end)),
    );
    let mark = () => {};
    if (current) {
      const range = textRange(node, current.start, current.end);
      mark = addHighlight('search-current', [range]);
      const box = range.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (box.top < view.top || box.bottom > view.bottom) scroller.scrollTop += box.top - view.top - view.height / 3;
    }
    return () => {
      others();
      mark();
    };
  }, [drawn, matches, current]);

  return (
    <div className="raw">
      <div className="raw-bar">
        <label className="check">
          <input type="checkbox" checked={pretty} disabled={truncated} onChange={(e) => setPretty(e.target.checked)} /> pretty-print
        </label>
        {truncated && (
          <span className="muted small">
            Showing the first {formatBytes(SHOWN_BYTES)} of {formatBytes(props.raw.size)}; use Save… for all of it.
          </span>
        )}
      </div>
      {cut && (
        <p className="banner banner-warn" role="status" data-testid="cut-notice">
          {cut}{' '}
          <button type="button" className="btn btn-small" onClick={() => setDrawAll(true)}>
            Draw all
          </button>
        </p>
      )}
      <pre ref={pre} className="raw-text" data-testid="raw-body" tabIndex={0}>
        {drawn}
      </pre>
    </div>
  );
}
