/** The parts of a diff result: compare tables, errors side by side, and the record changes (paged). */
import { bigNumberText, isBigNumber, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { useState } from 'react';
import { visibleText } from '../../components/visible-controls.tsx';
import type { JqlError, JsonValue } from '../../../shared/protocol.ts';
import styles from './diff.module.css';
import type { PayloadDiff } from './record-diff.ts';
import type { CompareRow, SectionDiff } from './result-diff.ts';
import { WhyNotButton } from './WhyNotButton.tsx';
import type { WhyNotResult } from './why-not.ts';

/** Asks why the record `id` is missing on one side ("left" lacks an added record, "right" a removed one). */
export type ExplainRecord = (missingOn: 'left' | 'right', id: number) => Promise<WhyNotResult>;

function idOf(record: JsonValue): number | null {
  const id = record !== null && typeof record === 'object' && !Array.isArray(record) ? record.id : undefined;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

const PAGE = 200;

export function show(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  const text = isBigNumber(value) ? bigNumberText(value) : stringifyKeepingNumbers(value);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

export function CompareTable({ rows, left, right, label }: { rows: CompareRow[]; left: string; right: string; label: string }) {
  if (rows.length === 0) return null;
  return (
    <table className={`${styles.table} ${styles.compare}`} aria-label={label}>
      <thead>
        <tr>
          <th />
          <th>{left}</th>
          <th>{right}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.same ? '' : styles.differs}>
            <th scope="row">{r.key}</th>
            <td className={styles.value}>{show(r.left)}</td>
            <td className={styles.value}>{show(r.right)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ErrorColumn({ errors }: { errors: JqlError[] | string[] }) {
  if (errors.length === 0) return <span className={styles.hint}>no errors</span>;
  return (
    <ul>
      {errors.map((e, i) => (
        <li key={i} className={styles.error}>
          {typeof e === 'string' ? e : `${e.code}: ${e.message}${e.field ? ` (${visibleText(e.field)})` : ''}`}
        </li>
      ))}
    </ul>
  );
}

export function ErrorsSideBySide({ left, right }: { left: JqlError[] | string[]; right: JqlError[] | string[] }) {
  if (left.length === 0 && right.length === 0) return null;
  return (
    <div className={styles.columns} aria-label="Errors">
      <ErrorColumn errors={left} />
      <ErrorColumn errors={right} />
    </div>
  );
}

type Change = { kind: 'added' | 'removed'; key: string; record: JsonValue } | { kind: 'changed'; key: string; fields: PayloadDiff['changed'][number]['fields'] };

function changesOf(p: PayloadDiff): Change[] {
  return [
    ...p.changed.map((c): Change => ({ kind: 'changed', key: c.key, fields: c.fields })),
    ...p.removed.map((r): Change => ({ kind: 'removed', key: r.key, record: r.record })),
    ...p.added.map((a): Change => ({ kind: 'added', key: a.key, record: a.record })),
  ];
}

export function RecordChanges({ payload, left, right, explain }: { payload: PayloadDiff; left: string; right: string; explain?: ExplainRecord }) {
  const [shown, setShown] = useState(PAGE);
  const changes = changesOf(payload);
  return (
    <div className={styles.box}>
      <span className={styles.title}>
        Records: {payload.added.length} added · {payload.removed.length} removed · {payload.changed.length} changed · {payload.unchanged} unchanged
        <span className={styles.hint}> (matched {payload.mode === 'by-id' ? 'by id' : payload.mode === 'by-position' ? 'by position' : 'as one value'})</span>
      </span>
      {payload.notices.map((n) => (
        <span key={n} className={styles.hint}>
          {n}
        </span>
      ))}
      {changes.length > 0 && (
        <table className={`${styles.table} ${styles.changes}`} aria-label="Record changes">
          <thead>
            <tr>
              <th>record</th>
              <th>field</th>
              <th>{left}</th>
              <th>{right}</th>
            </tr>
          </thead>
          <tbody>
            {changes.slice(0, shown).map((c) =>
              c.kind === 'changed' ? (
                c.fields.map((f, i) => (
                  <tr key={`${c.key}/${f.path}`} className={styles.differs} data-change="changed">
                    {i === 0 && (
                      <th scope="rowgroup" rowSpan={c.fields.length}>
                        <span className={styles.badge}>changed</span> {c.key}
                      </th>
                    )}
                    <td>{f.path}</td>
                    <td className={styles.value}>{show(f.left)}</td>
                    <td className={styles.value}>{show(f.right)}</td>
                  </tr>
                ))
              ) : (
                <tr key={`${c.kind}/${c.key}`} className={c.kind === 'added' ? styles.added : styles.removed} data-change={c.kind}>
                  <th scope="row">
                    <span className={styles.badge}>{c.kind}</span> {c.key}
                  </th>
                  <td />
                  <td className={styles.value}>{c.kind === 'removed' ? show(c.record) : <MissingHere explain={explain} side={left} missingOn="left" record={c.record} />}</td>
                  <td className={styles.value}>{c.kind === 'added' ? show(c.record) : <MissingHere explain={explain} side={right} missingOn="right" record={c.record} />}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
      {changes.length > shown && (
        <button type="button" className={styles.button} onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, changes.length - shown)} more of {changes.length - shown}
        </button>
      )}
    </div>
  );
}

/** The empty cell of the side that lacks a record: "Why not?" where the server can say. */
function MissingHere({ explain, side, missingOn, record }: { explain: ExplainRecord | undefined; side: string; missingOn: 'left' | 'right'; record: JsonValue }) {
  const id = idOf(record);
  if (!explain || id === null) return null;
  return <WhyNotButton side={side} explain={() => explain(missingOn, id)} />;
}

export function SectionView({ section, left, right, explain }: { section: SectionDiff; left: string; right: string; explain?: ExplainRecord }) {
  return (
    <div className={styles.box} data-section={section.name ?? ''}>
      {section.name !== null && <span className={styles.title}>{section.name}</span>}
      {section.presentIn !== 'both' && <span className={styles.error}>Only in the {section.presentIn === 'left' ? left : right} answer.</span>}
      {section.intent.left !== section.intent.right && (
        <span className={styles.hint}>
          intent {section.intent.left ?? '—'} vs {section.intent.right ?? '—'}
        </span>
      )}
      <ErrorsSideBySide left={section.errors.left} right={section.errors.right} />
      {section.payload && <RecordChanges payload={section.payload} left={left} right={right} {...(explain ? { explain } : {})} />}
      <CompareTable rows={section.extras} left={left} right={right} label="__extras__" />
    </div>
  );
}
