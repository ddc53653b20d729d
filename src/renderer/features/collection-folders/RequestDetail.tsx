/**
 * One request of a collection folder: its document, its captures, and its assertions as a table that
 * saves back to the request's file. Edits made on disk while nothing is edited here show up at once;
 * when both changed, the table keeps the edits and says that the file changed.
 */
import { useState, type JSX } from 'react';
import { serializeRequestFile } from '../../../shared/collections/format.ts';
import type { RequestResult, RunnableRequest, SnapshotOutcome } from '../../../shared/collections/run.ts';
import type { JsonValue } from '../../../shared/protocol.ts';
import { SnapshotResult } from './SnapshotResult.tsx';
import panel from '../../components/panel.module.css';
import { fromRow, toRow, type AssertionRow } from './assertion-rows.ts';
import { AssertionsTable } from './AssertionsTable.tsx';
import styles from './collection-folders.module.css';

export interface RequestDetailProps {
  request: RunnableRequest;
  result: RequestResult | null;
  onSave(path: string, text: string): Promise<void>;
  onOpen(document: string): void;
  /** Writes `snapshot` as the request's approved answer. */
  onApprove?(path: string, snapshot: JsonValue): Promise<void>;
}

export function RequestDetail({ request, result, onSave, onOpen, onApprove }: RequestDetailProps): JSX.Element {
  const fromFile = JSON.stringify(request.file.assertions);
  const [base, setBase] = useState(fromFile);
  const [rows, setRows] = useState<AssertionRow[]>(() => request.file.assertions.map(toRow));
  const [edited, setEdited] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // The file changed on disk: take it when nothing is edited here, else keep the edits and say so.
  if (fromFile !== base && !edited) {
    setBase(fromFile);
    setRows(request.file.assertions.map(toRow));
  }
  const changedOnDisk = edited && fromFile !== base;
  const checked = rows.map(fromRow);
  const problems = checked.map((c) => (c.ok ? null : c.problem));
  const results = result && !edited ? result.assertions : null;

  const save = async () => {
    const assertions = checked.flatMap((c) => (c.ok ? [c.assertion] : []));
    if (assertions.length !== rows.length) return setStatus({ ok: false, text: 'Not saved: a row is not an assertion yet (see its message).' });
    setStatus({ ok: true, text: 'Saving…' });
    try {
      await onSave(request.path, serializeRequestFile({ ...request.file, assertions }));
      setEdited(false);
      setBase(JSON.stringify(assertions));
      setStatus({ ok: true, text: `Saved ${request.path}` });
    } catch (error) {
      setStatus({ ok: false, text: `Not saved: ${(error as Error).message}` });
    }
  };

  return (
    <div className={panel.box} aria-label={`Request ${request.name}`} role="group">
      <div className={panel.row}>
        <strong>{request.name}</strong>
        <span className={panel.hint}>{request.path}</span>
        {request.file.tags.map((tag) => (
          <span key={tag} className={panel.hint}>
            #{tag}
          </span>
        ))}
        <button type="button" className={`${panel.button} ${panel.buttonCompact}`} onClick={() => onOpen(request.file.document)}>
          Open in tab
        </button>
      </div>
      {request.file.description && <p className={panel.hint}>{request.file.description}</p>}
      <pre className={styles.document} aria-label="Document">
        {request.file.document}
      </pre>
      {request.file.captures.length > 0 && (
        <p className={panel.hint}>Captures: {request.file.captures.map((c) => `${c.variable} ← ${c.path}`).join(', ')}</p>
      )}
      {result?.error && <p className={panel.error}>{result.error}</p>}
      {result?.snapshot && <SnapshotResult outcome={result.snapshot} onApprove={onApprove ? () => onApprove(request.path, (result.snapshot as SnapshotOutcome).actual) : undefined} />}
      <AssertionsTable
        rows={rows}
        results={results}
        problems={problems}
        onChange={(next) => {
          setRows(next);
          setEdited(true);
          setStatus(null);
        }}
      />
      {changedOnDisk && <p className={panel.error}>The file changed on disk while you were editing: saving replaces it with the table.</p>}
      <div className={panel.row}>
        <button type="button" className={`${panel.button} ${panel.primary}`} disabled={!edited} onClick={() => void save()}>
          Save assertions
        </button>
        {edited && (
          <button
            type="button"
            className={panel.button}
            onClick={() => {
              setRows(request.file.assertions.map(toRow));
              setBase(fromFile);
              setEdited(false);
            }}
          >
            Discard changes
          </button>
        )}
        {status && (
          <span role="status" className={status.ok ? panel.hint : panel.error}>
            {status.text}
          </span>
        )}
      </div>
    </div>
  );
}
