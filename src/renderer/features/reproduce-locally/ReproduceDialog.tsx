/**
 * "Reproduce locally": asks how deep to follow relations, which fields to redact and whether to copy
 * file contents, then shows the copy being made, model by model (records fetched of the total), with
 * a Cancel. When the copy is served the app adds it as a `local` connection (onDone).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react';
import type { CloneConnection, CloneJobStatus, CloneManifest, CloneRequest } from '../../../shared/clone.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { CloneClient } from './clone-client.ts';
import { DEFAULT_CHOICES, DEPTH_CHOICES, type ReproduceChoices } from './reproduce-request.ts';
import styles from './reproduce.module.css';

export interface ReproduceDialogProps {
  connectionName: string;
  client: CloneClient;
  /** The request for the chosen options, or why the tab cannot be reproduced. */
  build: (choices: ReproduceChoices) => { ok: true; request: CloneRequest } | { ok: false; reason: string };
  onDone: (connection: CloneConnection, manifest: CloneManifest) => void;
  onClose: () => void;
}

const POLL_MS = 400;
const PHASES: Record<CloneJobStatus['progress']['phase'], string> = {
  schema: 'Reading the schema…',
  records: 'Fetching records…',
  files: 'Copying files…',
  writing: 'Writing the copy…',
  done: 'Starting a server on the copy…',
};

export function ReproduceDialog(props: ReproduceDialogProps): JSX.Element {
  const [choices, setChoices] = useState<ReproduceChoices>(DEFAULT_CHOICES);
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({ mutationFn: (request: CloneRequest) => props.client.start(request) });
  const jobId = start.data ?? null;
  const status = useQuery({
    queryKey: ['clone', 'status', { jobId }],
    queryFn: () => props.client.status(jobId as string),
    enabled: jobId !== null,
    refetchInterval: (query) => (query.state.data === undefined || query.state.data.state === 'running' ? POLL_MS : false),
    gcTime: 0,
  });
  const current = status.data ?? null;
  const reported = useRef(false);
  useEffect(() => {
    if (current?.state === 'done' && !reported.current) {
      reported.current = true;
      props.onDone(current.connection, current.manifest);
    }
  }, [current, props]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = props.build(choices);
    if (!built.ok) return setProblem(built.reason);
    setProblem(null);
    start.mutate(built.request);
  };
  const running = start.isPending || (jobId !== null && (current === null || current.state === 'running'));

  return (
    <Dialog title={`Reproduce ${props.connectionName} locally`} onClose={() => (running && jobId ? void props.client.cancel(jobId) : props.onClose())} testId="reproduce-dialog">
      {jobId === null ? (
        <form className="form" onSubmit={submit}>
          <p className="form-note">Copies the records this tab's query reads (and those related to them) from {props.connectionName} into a new local server, then opens the tab on it. The remote server is only read.</p>
          <label className="field">
            <span>Relation depth</span>
            <select value={choices.depth} onChange={(e) => setChoices({ ...choices, depth: Number(e.target.value) })}>
              {DEPTH_CHOICES.map((depth) => (
                <option key={depth} value={depth}>
                  {depth === 0 ? '0: only the records the query reads (and what they reference)' : `${depth}`}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Redact fields</span>
            <input value={choices.redact} onChange={(e) => setChoices({ ...choices, redact: e.target.value })} placeholder="email, system.User.first_name" spellCheck={false} />
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={choices.withFiles} onChange={(e) => setChoices({ ...choices, withFiles: e.target.checked })} /> Copy file contents (otherwise only their names, sizes and hashes)
          </label>
          {(problem ?? start.error?.message) && (
            <p className="form-error" role="alert">
              {problem ?? start.error?.message}
            </p>
          )}
          <div className="form-actions">
            <button type="button" className="btn" onClick={props.onClose}>
              Close
            </button>
            <button type="submit" className="btn btn-primary" disabled={start.isPending}>
              {start.isPending ? 'Starting…' : 'Reproduce'}
            </button>
          </div>
        </form>
      ) : (
        <Progress status={current} error={status.error?.message ?? null} onCancel={() => void props.client.cancel(jobId)} onClose={props.onClose} />
      )}
    </Dialog>
  );
}

/** The copy being made: phase, records per model, and Cancel (or Close once it ended). */
export function Progress(props: { status: CloneJobStatus | null; error: string | null; onCancel: () => void; onClose: () => void }): JSX.Element {
  const { status } = props;
  const progress = status?.progress;
  const finished = status !== null && status.state !== 'running';
  return (
    <div className="form" data-testid="reproduce-progress">
      <p className="form-note" role="status">
        {status === null && !props.error && 'Starting…'}
        {status?.state === 'running' && `${PHASES[status.progress.phase]} (level ${status.progress.level}, ${status.progress.requests} request${status.progress.requests === 1 ? '' : 's'})`}
        {status?.state === 'running' && status.progress.rateLimitedMs ? ` The remote server asks to wait ${Math.ceil(status.progress.rateLimitedMs / 1000)} s.` : ''}
        {status?.state === 'done' && `Copied in ${status.progress.requests} requests. Opening it…`}
        {status?.state === 'cancelled' && 'Cancelled: nothing was kept.'}
      </p>
      {progress && progress.models.length > 0 && (
        <table className={styles.table} aria-label="Records per model">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Records</th>
            </tr>
          </thead>
          <tbody>
            {progress.models.map((model) => (
              <tr key={model.namespace} data-testid="reproduce-model">
                <th scope="row">{model.namespace}</th>
                <td>
                  <progress max={Math.max(1, model.total)} value={model.fetched} aria-label={`${model.namespace} records`} /> {model.fetched} of {model.total}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {progress?.files && progress.files.total > 0 && (
        <p className="form-note">
          Files: {progress.files.done} of {progress.files.total}
        </p>
      )}
      {(status?.state === 'failed' || props.error) && (
        <p className="form-error" role="alert">
          {status?.state === 'failed' ? status.message : props.error}
        </p>
      )}
      <div className="form-actions">
        {finished || props.error ? (
          <button type="button" className="btn" onClick={props.onClose}>
            Close
          </button>
        ) : (
          <button type="button" className="btn" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}
