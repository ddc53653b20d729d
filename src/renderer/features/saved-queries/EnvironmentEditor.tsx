/**
 * The variables of the current connection's environment: name and value rows, saved together so
 * the store can check names once. Values are read as JSON when they parse (`5`, `true`, `"5"`).
 */
import { useEffect, useRef, useState } from 'react';
import type { SavedQueriesStore } from './saved-queries-store.ts';
import type { EnvironmentVariable } from './saved-types.ts';
import styles from './saved-queries.module.css';

export interface EnvironmentEditorProps {
  store: SavedQueriesStore;
  connection: { id: string; name: string };
  variables: EnvironmentVariable[];
}

export function EnvironmentEditor({ store, connection, variables }: EnvironmentEditorProps) {
  const [rows, setRows] = useState<EnvironmentVariable[]>(variables);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // While a save is on its way the rows are the user's: a save that fails keeps them to try again.
  const saving = useRef(false);
  useEffect(() => {
    if (!saving.current) setRows(variables);
  }, [variables]);
  useEffect(() => setMessage(null), [connection.id]);
  const dirty = JSON.stringify(rows) !== JSON.stringify(variables);
  const setRow = (index: number, patch: Partial<EnvironmentVariable>) => setRows((r) => r.map((v, i) => (i === index ? { ...v, ...patch } : v)));

  return (
    <form
      className={styles.box}
      aria-label="Environment"
      onSubmit={(e) => {
        e.preventDefault();
        try {
          saving.current = true;
          store.setEnvironment(connection.id, rows.filter((r) => r.name.trim() !== '' || r.value !== ''));
        } catch (err) {
          saving.current = false;
          setMessage({ ok: false, text: (err as Error).message });
          return;
        }
        store.whenSaved().then(
          () => {
            saving.current = false;
            setRows(store.environment(connection.id));
            setMessage({ ok: true, text: 'Saved.' });
          },
          (err: Error) => {
            saving.current = false;
            setMessage({ ok: false, text: err.message });
          },
        );
      }}
    >
      <h3 className={styles.title}>Variables of {connection.name}</h3>
      <span className={styles.hint}>{'Use them as {{name}} in a query. A value that parses as JSON is that value (5, true, "5"); anything else is a string.'}</span>
      {rows.map((row, index) => (
        <div key={index} className={styles.row}>
          <input className={`${styles.input} ${styles.mono}`} aria-label={`Variable ${index + 1} name`} placeholder="name" value={row.name} onChange={(e) => setRow(index, { name: e.target.value })} />
          <input className={`${styles.input} ${styles.mono}`} style={{ flex: 1 }} aria-label={`Variable ${index + 1} value`} placeholder="value" value={row.value} onChange={(e) => setRow(index, { value: e.target.value })} />
          <button type="button" className={styles.button} aria-label={`Remove variable ${index + 1}`} onClick={() => setRows((r) => r.filter((_, i) => i !== index))}>
            ✕
          </button>
        </div>
      ))}
      <div className={styles.row}>
        <button type="button" className={styles.button} onClick={() => setRows((r) => [...r, { name: '', value: '' }])}>
          Add a variable
        </button>
        <button type="submit" className={styles.button} disabled={!dirty}>
          Save variables
        </button>
        {message && <p className={message.ok ? styles.ok : styles.error}>{message.text}</p>}
      </div>
    </form>
  );
}
