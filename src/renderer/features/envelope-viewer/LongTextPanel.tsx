/**
 * "Show all" of a long string in the JSON view: one piece of it in a text box (bounded-json.ts
 * textPiece), with what is not drawn said and the other pieces a click away; Copy takes the whole
 * string, and the Raw view holds the exact bytes. A 50 MB string put in a text box at once froze the
 * window (issue 31).
 */
import { useState, type JSX } from 'react';
import type { LongText } from '../../response/long-text.ts';
import { textPiece, TEXT_PIECE_CHARS } from './bounded-json.ts';
import { copyLongText, LONG_COPY_FAILED } from './long-text-copy.ts';

const count = (n: number) => n.toLocaleString('en');

/** `value`: the string, or a long text of a Run's payload, of which only the piece shown is built. */
export function LongTextPanel(props: { label: string; value: string | LongText; onClose: () => void; initialPiece?: number; pieceChars?: number }): JSX.Element {
  const [index, setIndex] = useState(props.initialPiece ?? 0);
  const [copied, setCopied] = useState<string | null>(null);
  const { value } = props;
  const piece = textPiece(value, index, props.pieceChars ?? TEXT_PIECE_CHARS);
  const total = value.length;
  const copy = () =>
    void (typeof value === 'string' ? navigator.clipboard.writeText(value) : copyLongText(value)).then(
      () => setCopied('Copied the whole string.'),
      () => setCopied(LONG_COPY_FAILED),
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
