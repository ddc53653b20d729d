/**
 * The multipart upload form (issue 6): pick a target from describe, fill the generated fields and
 * files, check the preview of the parts, send with progress and cancel, then read the answer and
 * open the stored files. The app supplies the connection, the transport and what to do with the
 * resulting envelope.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import type { DescribeResult, SingleQuery } from '../../../shared/protocol.ts';
import { hasCredential, type ServerTarget } from '../../transport/jql-client.ts';
import type { FileLink } from './file-links.ts';
import { FileDrop } from './FileDrop.tsx';
import { ErrorList, FieldInput } from './FieldInput.tsx';
import { ARGUMENTS_KEY, extraPartKey, FORM_KEY, UNIQUE_OBJECT_KEY } from './form-state.ts';
import { formatBytes } from './format-bytes.ts';
import { RecordPicker } from './RecordPicker.tsx';
import type { UploadOutcome } from './send-upload.ts';
import { FileLinks, OutcomeLine, PartsPreview, ProgressBar } from './UploadSummary.tsx';
import { targetLabel } from './upload-targets.ts';
import type { UploadTransport } from './upload-transport.ts';
import { useUpload } from './use-upload.ts';
import styles from './upload-form.module.css';

export interface UploadFormPanelProps {
  /** The connection's `system.Schema.describe`; null shows why there is nothing to pick. */
  describe: DescribeResult | null;
  /** The connection to upload to; null disables sending. */
  server: ServerTarget | null;
  transport: UploadTransport;
  /** Shown above the form: the app's connection picker. */
  connectionPicker?: ReactNode;
  /** Runs a retrieve for the record picker of update uploads and returns its payload. */
  fetchRecords?: (query: SingleQuery) => Promise<unknown>;
  /** Every answer, failed or not, for the envelope viewer. */
  onResult?: (outcome: UploadOutcome) => void;
  /** Opens a file URL the browser can open itself (Electron: the system browser); default: a plain link. */
  onOpenFile?: (link: FileLink) => void;
  /** Downloads a file that needs the bearer token (fetch with the Authorization header, then save). */
  onDownloadFile?: (link: FileLink) => void;
  /** Asked before each send (read-only mode); resolves false to send nothing. */
  confirmSend?: () => Promise<boolean>;
}

export function UploadFormPanel(props: UploadFormPanelProps) {
  const { describe, server, transport } = props;
  const u = useUpload(describe, server, transport, props.onResult, props.confirmSend);
  const sending = u.phase.kind === 'sending';
  // The answer and the stored files sit below the form: bring them into view when they arrive.
  const outcomeRef = useRef<HTMLDivElement>(null);
  const done = u.phase.kind === 'done' ? u.phase.outcome : null;
  useEffect(() => {
    if (done) outcomeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [done]);

  return (
    <section className={styles.panel} aria-label="Upload">
      {props.connectionPicker}
      {u.targets.length === 0 ? (
        <p className={styles.hint}>{describe ? 'This server has no model with a file field and no controller that takes files.' : 'Connect to a server that answers system.Schema.describe to upload files.'}</p>
      ) : (
        <>
          <div className={styles.row}>
            <label htmlFor="upload-target">Target</label>
            <select id="upload-target" className={styles.select} value={u.target?.key ?? ''} onChange={(e) => u.selectTarget(e.target.value)} disabled={sending}>
              {u.targets.map((t) => (
                <option key={t.key} value={t.key}>
                  {targetLabel(t)}
                </option>
              ))}
            </select>
            {describe && (
              <span className={styles.hint}>
                files up to {formatBytes(describe.limits.maxFileBytes)} each
                {describe.limits.maxUploadBytes ? `, ${formatBytes(describe.limits.maxUploadBytes)} in one upload` : ''}
              </span>
            )}
          </div>

          {u.target && u.model && u.state && (
            <form
              className={styles.section}
              onSubmit={(e) => {
                e.preventDefault();
                void u.send();
              }}
            >
              {u.model.needsUniqueObject && u.target.kind === 'model' && (
                <RecordPicker
                  connectionId={server?.connectionId ?? ''}
                  namespace={u.target.namespace}
                  model={u.target.model}
                  value={u.state.uniqueObject}
                  errors={u.errorsFor(UNIQUE_OBJECT_KEY)}
                  fetchRecords={props.fetchRecords}
                  onChange={(uniqueObject) => u.update((s) => ({ ...s, uniqueObject }))}
                />
              )}
              {u.model.fields.map((spec) => (
                <FieldInput
                  key={spec.name}
                  spec={spec}
                  value={u.state!.values[spec.name] ?? ''}
                  isNull={u.state!.nulls[spec.name] ?? false}
                  errors={u.errorsFor(spec.name)}
                  onChange={(value) => u.update((s) => ({ ...s, values: { ...s.values, [spec.name]: value } }))}
                  onNullChange={(isNull) => u.update((s) => ({ ...s, nulls: { ...s.nulls, [spec.name]: isNull } }))}
                />
              ))}
              {u.model.takesJsonArguments && (
                <div className={styles.field}>
                  <label htmlFor="upload-arguments" className={styles.label}>
                    arguments
                  </label>
                  <div>
                    <textarea id="upload-arguments" className={styles.textarea} value={u.state.argumentsJson} onChange={(e) => u.update((s) => ({ ...s, argumentsJson: e.target.value }))} />
                    <span className={styles.hint}>the intent&apos;s data keys, as a JSON object</span>
                    <ErrorList errors={u.errorsFor(ARGUMENTS_KEY)} />
                  </div>
                </div>
              )}
              {u.model.files.map((spec) => (
                <FileDrop
                  key={spec.name}
                  label={spec.name}
                  required={spec.required}
                  file={u.state!.files[spec.name] ?? null}
                  errors={u.errorsFor(spec.name)}
                  hint={spec.protected ? 'protected: served by signed URL' : undefined}
                  onChange={(file) => u.update((s) => ({ ...s, files: { ...s.files, [spec.name]: file } }))}
                />
              ))}
              {u.model.takesJsonArguments && <ExtraParts u={u} />}
              <ErrorList errors={u.errorsFor(FORM_KEY)} />

              <h3 className={styles.sectionTitle}>Parts to send</h3>
              {u.preview ? <PartsPreview parts={u.preview.parts} totalBytes={u.preview.totalBytes} /> : <p className={styles.hint}>The preview appears once the form is complete.</p>}

              {sending ? (
                <ProgressBar progress={u.phase.kind === 'sending' ? u.phase.progress : null} onCancel={u.cancel} />
              ) : (
                <div className={styles.row}>
                  <button type="submit" className={`${styles.button} ${styles.primary}`} disabled={!server}>
                    Upload
                  </button>
                  {!server && <span className={styles.hint}>Pick a connection first.</span>}
                  {u.phase.kind === 'cancelled' && <span className={styles.hint}>Cancelled before the server answered (an upload it had already received in full may still be stored).</span>}
                  {u.phase.kind === 'failed' && <span className={styles.error}>{u.phase.message}</span>}
                </div>
              )}
            </form>
          )}

          {u.phase.kind === 'done' && (
            <div className={styles.section} ref={outcomeRef}>
              <OutcomeLine outcome={u.phase.outcome} />
              <FileLinks
                links={u.phase.outcome.links}
                authClass={server?.authClass ?? 'jwt'}
                signedIn={server ? hasCredential(server) : false}
                onOpenFile={props.onOpenFile}
                onDownloadFile={props.onDownloadFile}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

function ExtraParts({ u }: { u: ReturnType<typeof useUpload> }) {
  const parts = u.state?.extraParts ?? [];
  return (
    <div className={styles.section}>
      <h3 className={styles.sectionTitle}>More file parts</h3>
      {parts.map((part, index) => (
        <div key={index} className={styles.row}>
          <input
            className={styles.input}
            aria-label={`Part ${index + 1} name`}
            placeholder="part name"
            value={part.name}
            onChange={(e) => u.update((s) => ({ ...s, extraParts: s.extraParts.map((p, i) => (i === index ? { ...p, name: e.target.value } : p)) }))}
          />
          <input type="file" aria-label={`Part ${index + 1} file`} onChange={(e) => u.update((s) => ({ ...s, extraParts: s.extraParts.map((p, i) => (i === index ? { ...p, file: e.target.files?.[0] ?? null } : p)) }))} />
          <button type="button" className={styles.link} onClick={() => u.update((s) => ({ ...s, extraParts: s.extraParts.filter((_, i) => i !== index) }))}>
            remove
          </button>
          <ErrorList errors={u.errorsFor(extraPartKey(index))} />
        </div>
      ))}
      <button type="button" className={styles.button} onClick={() => u.update((s) => ({ ...s, extraParts: [...s.extraParts, { name: '', file: null }] }))}>
        Add a part
      </button>
    </div>
  );
}
