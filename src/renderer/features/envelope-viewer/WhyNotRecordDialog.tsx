/**
 * "Why can't a user see this record?": asks for a username, then lists each rule the server names
 * (docs/protocol.md "Why not"), or says the user sees the record.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type JSX } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { usernameOf, type ExplainRecord, type RecordExplanation } from './record-actions.ts';

export function WhyNotRecordDialog(props: { id: number; explain: ExplainRecord; onClose: () => void }): JSX.Element {
  const [text, setText] = useState('');
  const ask = useMutation({ mutationFn: (user: string): Promise<{ user: string; answer: RecordExplanation }> => props.explain(user, props.id).then((answer) => ({ user, answer })) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const user = usernameOf(text);
    if (user !== null) ask.mutate(user);
  };
  const done = ask.data;
  return (
    <Dialog title={`Why can't a user see record ${props.id}?`} onClose={props.onClose} testId="why-not-record">
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Username</span>
          <input autoFocus value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <div role="status" aria-live="polite">
          {ask.isPending && <p className="form-note">Asking the server…</p>}
          {ask.isError && <p className="form-error">{(ask.error as Error).message}</p>}
          {done && 'failure' in done.answer && <p className="form-error">{done.answer.failure}</p>}
          {done && !('failure' in done.answer) && done.answer.reasons.length === 0 && <p data-testid="why-not-record-visible">{done.user} sees this record.</p>}
          {done && !('failure' in done.answer) && done.answer.reasons.length > 0 && (
            <ul aria-label={`Why ${done.user} cannot see record ${props.id}`} data-testid="why-not-record-reasons">
              {done.answer.reasons.map((reason, i) => (
                <li key={i}>
                  <strong>{reason.rule.replaceAll('_', ' ')}</strong>: {reason.message}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="form-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={ask.isPending || usernameOf(text) === null}>
            Ask
          </button>
        </div>
      </form>
    </Dialog>
  );
}
