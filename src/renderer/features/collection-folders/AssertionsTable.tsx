/** The assertions of one request as an editable table, with the last run's outcome of each row. */
import type { JSX } from 'react';
import { ASSERTION_OPERATORS, ASSERTION_TARGETS, type AssertionOperator, type AssertionTarget } from '../../../shared/collections/format.ts';
import type { AssertionResult } from '../../../shared/collections/assertions.ts';
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { EMPTY_ROW, type AssertionRow } from './assertion-rows.ts';
import styles from './collection-folders.module.css';
import panel from '../../components/panel.module.css';
import { VisibleControls, visibleText } from '../../components/visible-controls.tsx';

export interface AssertionsTableProps {
  rows: AssertionRow[];
  /** The last run's results, by row (absent: not run since the file was read). */
  results: AssertionResult[] | null;
  problems: Array<string | null>;
  onChange(rows: AssertionRow[]): void;
}

const show = (value: unknown): string => (value === undefined ? '(nothing)' : stringifyKeepingNumbers(value));

export function AssertionsTable({ rows, results, problems, onChange }: AssertionsTableProps): JSX.Element {
  const update = (index: number, change: Partial<AssertionRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <table className={panel.table} aria-label="Assertions">
      <thead>
        <tr>
          <th>Target</th>
          <th>Path</th>
          <th>Operator</th>
          <th>Value</th>
          <th>Last run</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const result = results?.[index];
          const n = index + 1;
          return (
            <tr key={index} data-assertion={n}>
              <td>
                <select className={`${styles.cell} ${styles.targetCell}`} aria-label={`Assertion ${n} target`} value={row.target} onChange={(e) => update(index, { target: e.target.value as AssertionTarget })}>
                  {ASSERTION_TARGETS.map((target) => (
                    <option key={target}>{target}</option>
                  ))}
                </select>
              </td>
              <td>
                {row.target === 'path' && <input className={styles.cell} aria-label={`Assertion ${n} path`} value={row.path} onChange={(e) => update(index, { path: e.target.value })} placeholder="$.__payload__[0].id" />}
                {row.target === 'errorCode' && <input className={styles.cell} aria-label={`Assertion ${n} error path`} value={row.at} onChange={(e) => update(index, { at: e.target.value })} placeholder='["filter", "x"] (optional)' />}
              </td>
              <td>
                <select className={styles.cell} aria-label={`Assertion ${n} operator`} value={row.op} onChange={(e) => update(index, { op: e.target.value as AssertionOperator })}>
                  {ASSERTION_OPERATORS.map((op) => (
                    <option key={op}>{op}</option>
                  ))}
                </select>
              </td>
              <td>
                <input className={styles.cell} aria-label={`Assertion ${n} value`} value={row.value} onChange={(e) => update(index, { value: e.target.value })} />
                {problems[index] && <div className={panel.error}>{problems[index]}</div>}
              </td>
              <td data-testid={`assertion-${n}-result`}>
                {result && (
                  <span className={result.passed ? styles.pass : styles.fail} title={result.message === undefined ? undefined : visibleText(result.message)}>
                    {result.passed ? '✓ passed' : '✗ failed'} · actual <VisibleControls text={show(result.actual)} />
                  </span>
                )}
              </td>
              <td>
                <button type="button" className={`${panel.button} ${panel.buttonCompact}`} aria-label={`Remove assertion ${n}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                  ×
                </button>
              </td>
            </tr>
          );
        })}
        <tr>
          <td colSpan={6}>
            <button type="button" className={`${panel.button} ${panel.buttonCompact}`} onClick={() => onChange([...rows, { ...EMPTY_ROW }])}>
              Add assertion
            </button>
          </td>
        </tr>
      </tbody>
    </table>
  );
}
