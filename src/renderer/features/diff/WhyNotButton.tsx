/** "Why not?" beside a record one side of a diff lacks: asks the server and lists each rule it names. */
import { useMutation } from '@tanstack/react-query';
import type { JSX } from 'react';
import styles from './diff.module.css';
import type { WhyNotResult } from './why-not.ts';

export function WhyNotButton({ explain, side }: { explain: () => Promise<WhyNotResult>; side: string }): JSX.Element {
  const ask = useMutation({ mutationFn: explain });
  const result = ask.data;
  return (
    <div className={styles.whyNot}>
      <button type="button" className={styles.button} disabled={ask.isPending} onClick={() => ask.mutate()} aria-label={`Why not on ${side}?`}>
        {ask.isPending ? 'Asking…' : 'Why not?'}
      </button>
      {ask.isError && <p className={styles.error}>{(ask.error as Error).message}</p>}
      {result && 'failure' in result && <p className={styles.error}>{result.failure}</p>}
      {result && !('failure' in result) && (
        <ul aria-label={`Why not on ${side}`} data-testid="why-not-reasons">
          {result.reasons.length === 0 && <li className={styles.hint}>No rule removes it for {result.user ?? 'this caller'} now (it may have changed since the diff ran).</li>}
          {result.reasons.map((reason, i) => (
            <li key={i}>
              <span className={styles.badge}>{reason.rule.replaceAll('_', ' ')}</span> {reason.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
