/** A file picker that also takes a dropped file, showing the chosen file's name, size and type. */
import { useId, useState, type DragEvent } from 'react';
import { formatBytes } from './format-bytes.ts';
import { ErrorList } from './FieldInput.tsx';
import styles from './upload-form.module.css';

export interface FileDropProps {
  label: string;
  required: boolean;
  file: File | null;
  errors: readonly string[];
  hint?: string;
  onChange: (file: File | null) => void;
}

export function FileDrop({ label, required, file, errors, hint, onChange }: FileDropProps) {
  const id = useId();
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onChange(dropped);
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={`${styles.label} ${required ? styles.required : ''}`}>
        {label}
      </label>
      <div>
        <div
          className={`${styles.drop} ${over ? styles.dropActive : ''}`}
          data-part={label}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <input
            // Remounted when the file changes, so picking the same file again still fires a change.
            key={file ? `${file.name}:${file.size}:${file.lastModified}` : 'none'}
            id={id}
            type="file"
            className={styles.fileInput}
            aria-invalid={errors.length > 0}
            onChange={(e) => onChange(e.target.files?.[0] ?? null)}
          />
          <label htmlFor={id} className={styles.button}>
            {file ? 'Replace…' : 'Choose a file…'}
          </label>
          {file ? (
            <span>
              {file.name} · {formatBytes(file.size)} · {file.type || 'application/octet-stream'}{' '}
              <button type="button" className={styles.link} onClick={() => onChange(null)}>
                remove
              </button>
            </span>
          ) : (
            <span className={styles.hint}>or drop a file here</span>
          )}
        </div>
        {hint && <span className={styles.hint}>{hint}</span>}
        <ErrorList errors={errors} />
      </div>
    </div>
  );
}
