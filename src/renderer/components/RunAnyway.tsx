/**
 * A write refused in read-only mode: the one sentence that says what and why, and "Run once
 * anyway". On a production connection that asks for the connection's name to be typed first, the
 * way GitHub asks for a repository's name before deleting it.
 */
import { useState, type FormEvent, type JSX } from 'react';
import { Dialog } from './Dialog.tsx';

/** The confirmation of "Run once anyway": the sentence again, and on production the name to type. */
export function RunAnywayDialog(props: { sentence: string; confirmName: string | null; onConfirm: () => void; onClose: () => void }): JSX.Element {
  const [typed, setTyped] = useState('');
  const matches = props.confirmName === null || typed === props.confirmName;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!matches) return;
    // Confirm first: a caller waiting on the answer takes the first one.
    props.onConfirm();
    props.onClose();
  };
  return (
    <Dialog title="Run once anyway" onClose={props.onClose} testId="run-anyway-dialog">
      <form className="form" onSubmit={submit}>
        <p className="form-note">{props.sentence}</p>
        {props.confirmName !== null && (
          <label className="field">
            <span>
              Type <strong>{props.confirmName}</strong> to send it this once
            </span>
            <input value={typed} onChange={(e) => setTyped(e.target.value)} autoFocus spellCheck={false} autoComplete="off" aria-label="Connection name" />
          </label>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={!matches}>
            Run once anyway
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The refusal where the answer would have been, with its way past. */
export function RefusedWrite(props: { sentence: string; confirmName: string | null; onRunAnyway?: () => void }): JSX.Element {
  const [confirming, setConfirming] = useState(false);
  const runAnyway = props.onRunAnyway;
  return (
    <div className="empty" role="alert" data-testid="write-refused">
      <p className="text-warn">{props.sentence}</p>
      {runAnyway && (
        <p>
          <button type="button" className="btn btn-small btn-danger" onClick={() => (props.confirmName ? setConfirming(true) : runAnyway())}>
            Run once anyway
          </button>
        </p>
      )}
      <p className="muted small">Read-only mode is switched per connection (Edit in the sidebar).</p>
      {confirming && runAnyway && props.confirmName !== null && (
        <RunAnywayDialog sentence={props.sentence} confirmName={props.confirmName} onConfirm={runAnyway} onClose={() => setConfirming(false)} />
      )}
    </div>
  );
}
