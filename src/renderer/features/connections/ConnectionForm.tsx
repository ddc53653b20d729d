/**
 * Add or edit a connection: name, base URL, authentication class, its kind (development, staging,
 * production) and read-only mode. The embedded connection is always `local` and only its read-only
 * switch can be changed. Read-only follows the kind (on for production) until the user sets it.
 */
import { useState, type FormEvent, type JSX } from 'react';
import type { AuthenticationClass } from '../../../shared/protocol.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { Connection, ConnectionDraft } from '../../state/connections-store.ts';
import { DEFAULT_REMOTE_KIND, defaultReadOnly, REMOTE_KINDS, type DeploymentKind } from '../../state/safety/connection-kinds.ts';
import { parseAnswerLimit, validateDraft, type DraftErrors } from './connection-draft.ts';

const KIND_HINT: Record<DeploymentKind, string> = {
  local: 'The embedded server on this machine.',
  development: 'A server for building and trying things.',
  staging: 'A copy of production for testing releases.',
  production: 'Live data: read-only by default, and a write must be confirmed.',
};

export function ConnectionForm(props: {
  initial?: Connection;
  onSave: (draft: ConnectionDraft) => void;
  onClose: () => void;
}): JSX.Element {
  const embedded = props.initial?.kind === 'embedded';
  const [name, setName] = useState(props.initial?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(props.initial?.baseUrl ?? '');
  const [authClass, setAuthClass] = useState<AuthenticationClass>(props.initial?.authClass ?? 'jwt');
  const [deployment, setDeployment] = useState<DeploymentKind>(props.initial?.deployment ?? DEFAULT_REMOTE_KIND);
  // null: follow the kind's default until the user ticks or unticks it.
  const [readOnlyChoice, setReadOnlyChoice] = useState<boolean | null>(props.initial ? props.initial.readOnly : null);
  const readOnly = readOnlyChoice ?? defaultReadOnly(deployment);
  const [limitText, setLimitText] = useState(props.initial?.answerLimit ? String(props.initial.answerLimit / (1024 * 1024)) : '');
  const [errors, setErrors] = useState<DraftErrors>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const limit = parseAnswerLimit(limitText);
    if (limit.error) return setErrors({ answerLimit: limit.error });
    const answerLimit = limit.answerLimit === undefined ? {} : { answerLimit: limit.answerLimit };
    if (embedded) return props.onSave({ name, baseUrl, authClass, deployment: 'local', readOnly, ...answerLimit });
    const result = validateDraft({ name, baseUrl, authClass, deployment, readOnly, ...answerLimit });
    setErrors(result.errors);
    if (Object.keys(result.errors).length === 0) props.onSave(result.draft);
  };

  return (
    <Dialog title={props.initial ? 'Edit connection' : 'Add a connection'} onClose={props.onClose} testId="connection-form">
      <form className="form" onSubmit={submit} noValidate>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Staging" autoFocus={!embedded} disabled={embedded} />
        </label>
        <label className="field">
          <span>Server URL</span>
          <input
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            placeholder="https://jql.example.com/api"
            aria-invalid={!!errors.baseUrl}
            spellCheck={false}
            disabled={embedded}
          />
          {errors.baseUrl && <small className="field-error">{errors.baseUrl}</small>}
          {!embedded && <small className="field-hint">The server's origin and base path; queries go to this URL + /jql.</small>}
        </label>
        {!embedded && (
          <label className="field">
            <span>Authentication</span>
            <select value={authClass} onChange={(e) => setAuthClass(e.target.value as AuthenticationClass)}>
              <option value="jwt">Bearer token (jwt)</option>
              <option value="session">Session cookie (session)</option>
            </select>
          </label>
        )}
        <label className="field">
          <span>Kind</span>
          <select value={embedded ? 'local' : deployment} onChange={(e) => setDeployment(e.target.value as DeploymentKind)} disabled={embedded}>
            {(embedded ? (['local'] as DeploymentKind[]) : REMOTE_KINDS).map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <small className="field-hint">{KIND_HINT[embedded ? 'local' : deployment]}</small>
        </label>
        <label className="field field-inline">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnlyChoice(e.target.checked)} />
          <span>Read-only: refuse creates, updates, deletes, uploads and controller intents the server does not declare read-only</span>
        </label>
        <label className="field">
          <span>Answer limit (MiB)</span>
          <input value={limitText} onChange={(e) => setLimitText(e.target.value)} placeholder="64" inputMode="numeric" aria-invalid={!!errors.answerLimit} />
          {errors.answerLimit && <small className="field-error">{errors.answerLimit}</small>}
          <small className="field-hint">The console stops reading a larger answer, with a message; empty keeps 64 MiB.</small>
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
