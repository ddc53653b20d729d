/**
 * Diff (issue 6): runs the same document on two connections (embedded vs a deployment, or one server
 * as two users) and shows what differs: records by id (added, removed, changed field by field),
 * `__extras__`, errors and timing side by side. The app supplies how one side is run.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import styles from './diff.module.css';
import { CompareTable, ErrorsSideBySide, SectionView } from './DiffSections.tsx';
import { countChanges, runDiff, type DiffSide } from './result-diff.ts';
import type { ExplainMissing } from './why-not.ts';

export interface DiffPanelProps {
  connections: Array<{ id: string; name: string }>;
  /** The document to run on both sides (the active editor tab's text). */
  document: string;
  /** Runs the document on one connection; `sideFromBody` / `sideFromFailure` build the result. */
  run: (connectionId: string, document: string) => Promise<DiffSide>;
  initialLeft?: string;
  initialRight?: string;
  /** Why the document may not run on these two sides (Diff never writes); the run button is off while set. */
  refusalFor?: (leftId: string, rightId: string) => string | null;
  /** Names the two pickers ("connection" or "identity"). */
  sideNoun?: string;
  /** "Why not?" for a record one side lacks, where the sides can explain it (one server, two users). */
  explain?: ExplainMissing;
}

export function DiffPanel({ connections, document, run, initialLeft, initialRight, refusalFor, sideNoun = 'connection', explain }: DiffPanelProps) {
  const [leftId, setLeftId] = useState(initialLeft ?? connections[0]?.id ?? '');
  const [rightId, setRightId] = useState(initialRight ?? connections[1]?.id ?? connections[0]?.id ?? '');
  const nameOf = (id: string) => connections.find((c) => c.id === id)?.name ?? id;
  const refusal = refusalFor?.(leftId, rightId) ?? null;
  const diff = useMutation({
    mutationKey: ['diff', 'run'],
    mutationFn: (sides: { left: string; right: string }) => runDiff(run, document, { id: sides.left, label: nameOf(sides.left) }, { id: sides.right, label: nameOf(sides.right) }),
  });
  const result = diff.data;
  // The sides the result was run on, not the pickers' current values (they may have moved since).
  const ran = diff.variables ?? { left: leftId, right: rightId };
  const counts = result ? countChanges(result) : null;

  const picker = (label: string, value: string, set: (id: string) => void) => (
    <select className={styles.select} aria-label={label} value={value} onChange={(e) => set(e.target.value)}>
      {connections.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </select>
  );

  return (
    <section className={styles.panel} aria-label="Diff">
      <div className={styles.row}>
        {picker(`Left ${sideNoun}`, leftId, setLeftId)}
        <span>vs</span>
        {picker(`Right ${sideNoun}`, rightId, setRightId)}
        <button type="button" className={styles.button} disabled={diff.isPending || !leftId || !rightId || document.trim() === '' || refusal !== null} onClick={() => diff.mutate({ left: leftId, right: rightId })}>
          {diff.isPending ? 'Running…' : 'Run on both'}
        </button>
        {leftId === rightId && <span className={styles.hint}>Both sides use the same {sideNoun}.</span>}
      </div>
      {refusal && (
        <p className={styles.error} role="alert" data-testid="diff-refusal">
          {refusal}
        </p>
      )}
      {connections.length < 2 && <p className={styles.hint}>Add a second {sideNoun} to compare.</p>}
      {diff.isError && <p className={styles.error}>{(diff.error as Error).message}</p>}
      {result && counts && (
        <>
          <p className={result.same ? styles.same : styles.title} role="status">
            {result.same
              ? 'Both answers are the same (timing aside).'
              : `${counts.added} added · ${counts.removed} removed · ${counts.changed} changed · ${counts.unchanged} unchanged${result.left.status !== result.right.status ? ` · status ${result.left.status} vs ${result.right.status}` : ''}`}
          </p>
          <CompareTable rows={result.timing} left={result.left.label} right={result.right.label} label="Timing" />
          <ErrorsSideBySide left={result.requestErrors.left} right={result.requestErrors.right} />
          {result.sections.map((section) => (
            <SectionView
              key={section.name ?? ''}
              section={section}
              left={result.left.label}
              right={result.right.label}
              {...(explain ? { explain: (missingOn: 'left' | 'right', id: number) => explain(missingOn === 'left' ? ran.left : ran.right, section.name, id) } : {})}
            />
          ))}
        </>
      )}
    </section>
  );
}
