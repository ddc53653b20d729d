/**
 * How a request's answer compared with its approved snapshot (docs/collections.md "Snapshots"): the
 * differences, record by record, and "Approve new answer", which writes what came as the snapshot.
 */
import { useMutation } from '@tanstack/react-query';
import type { JSX } from 'react';
import type { SnapshotOutcome } from '../../../shared/collections/run.ts';
import { describeChanges } from '../../../shared/collections/snapshot.ts';
import { VisibleControls } from '../../components/visible-controls.tsx';
import panel from '../../components/panel.module.css';
import styles from './collection-folders.module.css';

const HEADLINES: Record<SnapshotOutcome['state'], string> = {
  matched: 'The answer matches its approved snapshot.',
  differs: 'The answer differs from its approved snapshot:',
  missing: 'No snapshot is approved for this request yet.',
  updated: 'The new answer is approved as the snapshot.',
};

export function SnapshotResult({ outcome, onApprove }: { outcome: SnapshotOutcome; onApprove: (() => Promise<void>) | undefined }): JSX.Element {
  const approve = useMutation({ mutationFn: async () => onApprove?.() });
  const failing = outcome.state === 'differs' || outcome.state === 'missing';
  return (
    <div className={panel.box} role="group" aria-label="Snapshot">
      <p className={failing ? panel.error : panel.hint} data-testid="snapshot-state">
        {HEADLINES[outcome.state]}
      </p>
      {outcome.state === 'differs' && (
        <pre className={styles.document} aria-label="Snapshot differences">
          {/* The values are the server's data: bidi and zero-width characters drawn visibly. */}
          <VisibleControls text={describeChanges(outcome.changes)} />
        </pre>
      )}
      {failing && onApprove && (
        <div className={panel.row}>
          <button type="button" className={`${panel.button} ${panel.primary}`} disabled={approve.isPending} onClick={() => approve.mutate()}>
            Approve new answer
          </button>
          {approve.isError && <span className={panel.error}>Not approved: {(approve.error as Error).message}</span>}
        </div>
      )}
    </div>
  );
}
