/**
 * What the form shows around a send: the preview of the multipart parts, the progress bar with
 * cancel, and after the answer its status and links to the stored files.
 */
import type { AuthenticationClass } from '../../../shared/protocol.ts';
import type { PartPreview } from './build-upload.ts';
import { fileAccess, type FileLink } from './file-links.ts';
import { formatBytes } from './format-bytes.ts';
import { progressFraction, type UploadOutcome } from './send-upload.ts';
import type { UploadProgress } from './upload-transport.ts';
import styles from './upload-form.module.css';

export function PartsPreview({ parts, totalBytes }: { parts: PartPreview[]; totalBytes: number }) {
  return (
    <table className={styles.parts} aria-label="Multipart parts">
      <thead>
        <tr>
          <th>part</th>
          <th>size</th>
          <th>content</th>
        </tr>
      </thead>
      <tbody>
        {parts.map((p) => (
          <tr key={p.name} data-part={p.name}>
            <td className={styles.label}>{p.name}</td>
            <td>{formatBytes(p.size)}</td>
            <td>{p.kind === 'field' ? <pre className={styles.code}>{p.detail}</pre> : `${p.detail}${p.field ? ` → field ${p.field}` : ''}`}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td>total</td>
          <td colSpan={2}>{formatBytes(totalBytes)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export function ProgressBar({ progress, onCancel }: { progress: UploadProgress | null; onCancel: () => void }) {
  const fraction = progressFraction(progress);
  return (
    <div className={styles.row} role="status" aria-live="polite">
      <progress className={styles.progress} max={1} value={fraction ?? undefined} aria-label="Upload progress" />
      <span>
        {progress ? `${formatBytes(progress.loaded)}${progress.total !== null ? ` of ${formatBytes(progress.total)}` : ''}` : 'Starting…'}
        {fraction !== null ? ` (${Math.round(fraction * 100)}%)` : ''}
      </span>
      <button type="button" className={styles.button} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

export interface FileLinksProps {
  links: FileLink[];
  authClass: AuthenticationClass;
  /** Requests as the connection's user carry a credential (the page's token, or main's in the desktop app). */
  signedIn: boolean;
  onOpenFile?: (link: FileLink) => void;
  onDownloadFile?: (link: FileLink) => void;
}

export function FileLinks({ links, authClass, signedIn, onOpenFile, onDownloadFile }: FileLinksProps) {
  if (links.length === 0) return null;
  return (
    <ul aria-label="Stored files" className={styles.files}>
      {links.map((link) => {
        const access = fileAccess(link, authClass, signedIn);
        return (
          <li key={link.path}>
            <span className={styles.label}>{link.path}</span>: {link.value.name} · {formatBytes(link.value.size)} · sha256 {link.value.sha256.slice(0, 12)}…{' '}
            {access === 'link' && !onOpenFile ? (
              <>
                <a className={styles.link} href={link.href} target="_blank" rel="noreferrer noopener">
                  open
                </a>{' '}
                <a className={styles.link} href={link.href} download={link.value.name}>
                  download
                </a>
              </>
            ) : access === 'link' ? (
              <button type="button" className={styles.link} onClick={() => onOpenFile?.(link)}>
                open
              </button>
            ) : (
              <button type="button" className={styles.link} disabled={!onDownloadFile} onClick={() => onDownloadFile?.(link)}>
                download
              </button>
            )}
            {link.expiresAt && <span className={styles.hint}> (signed, valid until {link.expiresAt.toLocaleTimeString()})</span>}
          </li>
        );
      })}
    </ul>
  );
}

export function OutcomeLine({ outcome }: { outcome: UploadOutcome }) {
  const { response, view } = outcome;
  return (
    <p className={view.failed ? styles.error : styles.ok} role="status" data-testid="upload-outcome">
      {response.status} {response.statusText} · {Math.round(response.timeMs)} ms · {formatBytes(response.body.byteLength)}
      {view.failed ? ' · the server refused the upload (see the fields above)' : view.sections[0]?.message ? ` · ${view.sections[0].message}` : ' · stored'}
    </p>
  );
}
