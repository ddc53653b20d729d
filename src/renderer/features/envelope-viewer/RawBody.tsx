/**
 * The body as received. A huge one is shown from its start only (the whole of it is one click
 * away with Save); reading a slice of the Blob never decodes the rest.
 */
import { useEffect, useState, type JSX } from 'react';
import { formatBytes } from '../../components/format.ts';

const SHOWN_BYTES = 512 * 1024;

export function RawBody(props: { raw: Blob }): JSX.Element {
  const [text, setText] = useState<string | null>(null);
  const [pretty, setPretty] = useState(false);
  const truncated = props.raw.size > SHOWN_BYTES;

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

  let shown = text ?? '';
  if (pretty && !truncated) {
    try {
      shown = JSON.stringify(JSON.parse(shown), null, 2);
    } catch {
      // Not JSON: show it as it came.
    }
  }

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
      <pre className="raw-text" data-testid="raw-body">
        {shown}
      </pre>
    </div>
  );
}
