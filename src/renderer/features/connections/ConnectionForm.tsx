/** Add or edit a remote connection: name, base URL, authentication class. */
import { useState, type FormEvent, type JSX } from 'react';
import type { AuthenticationClass } from '../../../shared/protocol.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { Connection, ConnectionDraft } from '../../state/connections-store.ts';
import { validateDraft, type DraftErrors } from './connection-draft.ts';

export function ConnectionForm(props: {
  initial?: Connection;
  onSave: (draft: ConnectionDraft) => void;
  onClose: () => void;
}): JSX.Element {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(props.initial?.baseUrl ?? '');
  const [authClass, setAuthClass] = useState<AuthenticationClass>(props.initial?.authClass ?? 'jwt');
  const [errors, setErrors] = useState<DraftErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateDraft({ name, baseUrl, authClass });
    setErrors(result.errors);
    if (Object.keys(result.errors).length === 0) props.onSave(result.draft);
  };

  return (
    <Dialog title={props.initial ? 'Edit connection' : 'Add a connection'} onClose={props.onClose} testId="connection-form">
      <form className="form" onSubmit={submit} noValidate>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Staging" autoFocus />
        </label>
        <label className="field">
          <span>Server URL</span>
          <input
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            placeholder="https://jql.example.com/api"
            aria-invalid={!!errors.baseUrl}
            spellCheck={false}
          />
          {errors.baseUrl && <small className="field-error">{errors.baseUrl}</small>}
          <small className="field-hint">The server's origin and base path; queries go to this URL + /jql.</small>
        </label>
        <label className="field">
          <span>Authentication</span>
          <select value={authClass} onChange={(e) => setAuthClass(e.target.value as AuthenticationClass)}>
            <option value="jwt">Bearer token (jwt)</option>
            <option value="session">Session cookie (session)</option>
          </select>
        </label>
        <div className="form-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            {props.initial ? 'Save' : 'Add connection'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
