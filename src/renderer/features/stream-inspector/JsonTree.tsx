/**
 * An event's record as a JSON tree: objects and arrays fold with <details>, values are coloured by
 * type. Records in events are small (one row), so no virtualization is needed here.
 */
import { VisibleControls } from '../../components/visible-controls.tsx';
import type { JsonValue } from '../../../shared/protocol.ts';
import { bigNumberText, isBigNumber } from '../../../shared/big-number.ts';
import styles from './stream-inspector.module.css';

function Leaf({ value }: { value: JsonValue }) {
  if (isBigNumber(value)) return <span className={styles.literal}>{bigNumberText(value)}</span>;
  if (typeof value === 'string') return <span className={styles.string}><VisibleControls text={JSON.stringify(value)} /></span>;
  return <span className={styles.literal}>{JSON.stringify(value)}</span>;
}

function Node({ label, value, depth }: { label: string | null; value: JsonValue; depth: number }) {
  const key = label !== null ? <span className={styles.key}><VisibleControls text={label} />: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <li>
        {key}
        <Leaf value={value} />
      </li>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const summary = Array.isArray(value) ? `Array(${entries.length})` : `{${entries.length}}`;
  if (entries.length === 0) {
    return (
      <li>
        {key}
        <span className={styles.literal}>{Array.isArray(value) ? '[]' : '{}'}</span>
      </li>
    );
  }
  return (
    <li>
      <details open={depth < 2}>
        <summary>
          {key}
          <span className={styles.hint}>{summary}</span>
        </summary>
        <ul>
          {entries.map(([k, v]) => (
            <Node key={k} label={k} value={v} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

export function JsonTree({ value }: { value: JsonValue }) {
  return (
    <ul className={styles.tree} aria-label="Record">
      <Node label={null} value={value} depth={0} />
    </ul>
  );
}
