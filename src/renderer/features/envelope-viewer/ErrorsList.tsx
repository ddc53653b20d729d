/**
 * `__errors__` as a list; each entry jumps to its marker in the editor and links to its code's entry
 * in the docs. Only the first SHOWN_ERRORS are listed (50,000 would freeze the window), with a
 * sentence saying how many more the raw answer holds; the boundary did not read those (count-caps.ts),
 * so a misfit among them is not named either. Of those listed, only the ones in view are drawn
 * (VirtualList.tsx).
 */
import { VisibleControls } from '../../components/visible-controls.tsx';
import type { JSX } from 'react';
import { isErrorCode, type ErrorCode } from '../../../shared/error-codes.ts';
import type { JqlError } from '../../../shared/protocol.ts';
import { cutSentence, firstOf, SHOWN_ERRORS } from './count-bounds.ts';
import { CutNotice } from './CutNotice.tsx';
import { VirtualList } from './VirtualList.tsx';

/** An error card's height before it is measured: one line of code, message and place. */
const ERROR_HEIGHT = 64;

export function ErrorsList(props: {
  errors: Array<{ section: string | null; error: JqlError }>;
  /** How many errors the answer holds in all, the unread past the cap included (errorCount). */
  total: number;
  onReveal: (index: number) => void;
  /** Opens the docs at an error code's entry. */
  onOpenDocs?: (code: ErrorCode) => void;
}): JSX.Element {
  if (props.total === 0) return <p className="empty">No errors.</p>;
  const { shown } = firstOf(props.errors, SHOWN_ERRORS);
  const cut = Math.max(0, props.total - shown.length);
  return (
    <>
      <CutNotice sentence={cutSentence(shown.length, cut, 'errors', 'the Raw view')} />
      <VirtualList
        as="ul"
        className="errors"
        testId="errors-list"
        items={shown}
        estimateHeight={ERROR_HEIGHT}
        renderItem={({ section, error }, i) => ({
          className: 'error-item',
          content: (
            <>
              <button type="button" className="error-link" onClick={() => props.onReveal(i)} title="Show in the editor">
                <span className="error-code">{error.code}</span>
                {section !== null && <span className="tag">{section}</span>}
                <span className="error-message"><VisibleControls text={error.message} /></span>
                {(error.field || error.path) && (
                  <span className="error-where muted">
                    {error.field && <>field <VisibleControls text={error.field} /></>}
                    {error.path && <> · path <VisibleControls text={error.path.join('.')} /></>}
                  </span>
                )}
              </button>
              {props.onOpenDocs && isErrorCode(error.code) && (
                <button type="button" className="btn btn-small error-docs" onClick={() => props.onOpenDocs?.(error.code)} title={`What ${error.code} means, in the protocol docs`}>
                  About {error.code}
                </button>
              )}
              {error.detail && (
                <details className="error-detail">
                  <summary>{error.detail.exception}</summary>
                  <pre>{error.detail.stack ?? error.detail.message}</pre>
                </details>
              )}
            </>
          ),
        })}
      />
    </>
  );
}
