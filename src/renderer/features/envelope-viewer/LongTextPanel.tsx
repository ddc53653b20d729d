/**
 * "Show all" of a long string in the JSON view: one piece of it in a text box (bounded-json.ts
 * textPiece), with what is not drawn said and the other pieces a click away; Copy takes the whole
 * string, and the Raw view holds the exact bytes. A 50 MB string put in a text box at once froze the
 * window (issue 31).
 */
import { useState, type JSX } from 'react';
import { textPiece, TEXT_PIECE_CHARS } from './bounded-json.ts';

const count = (n: number) => n.toLocaleString('en');

export function LongTextPanel(props: { label: string; value: string; onClose: () => void; initialPiece?: number; pieceChars?: number }): JSX.Element {
  const [index, setIndex] = useState(props.initialPiece ?? 0);
  const [copied, setCopied] = useState<string | null>(null);
  const piece = textPiece(props.value, index, props.pieceChars ?? TEXT_PIECE_CHARS);
  const total = props.value.length;
  const copy = () =>
    void navigator.clipboard.writeText(props.value).then(
      () => setCopied('Copied the whole string.'),
      () => setCopied('Could not copy: the clipboard is not available here. The Raw view holds the whole answer.'),
    );
  return (
    <div className="long-text-panel" data-testid="long-text-panel">
      <div className="raw-bar">
        <span className="muted small">
          {props.label}: {count(total)} characters
        </span>
        <button type="button" className="btn btn-small" onClick={copy}>
          Copy whole string
        </button>
        <button type="button" className="btn btn-small" onClick={props.onClose}>
          Close
        </button>
      </div>
      {piece.count > 1 && (
        <p className="muted small" data-testid="cut-notice">
          Showing characters {count(piece.from + 1)}–{count(piece.to)} of {count(total)} (piece {count(piece.index + 1)} of {count(piece.count)}): {count(total - piece.text.length)} characters are not drawn. Copy
          takes the whole string; the Raw view holds the exact answer.{' '}
          <button type="button" className="link" disabled={piece.index === 0} onClick={() => setIndex(piece.index - 1)}>
            previous piece
          </button>{' '}
          <button type="button" className="link" disabled={piece.index === piece.count - 1} onClick={() => setIndex(piece.index + 1)}>
            next piece
          </button>
        </p>
      )}
      {copied && (
        <p className="muted small" role="status">
          {copied}
        </p>
      )}
      <textarea className="long-text" readOnly value={piece.text} aria-label={piece.count > 1 ? `Characters ${count(piece.from + 1)} to ${count(piece.to)} of the string` : 'The whole string'} />
    </div>
  );
}
