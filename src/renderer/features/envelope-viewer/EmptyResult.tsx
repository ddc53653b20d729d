/** An empty payload: says the query matched nothing and shows the conditions it was asked with. */
import type { JSX } from 'react';
import { appliedConditions, conditionsText } from './empty-result.ts';

export function EmptyResult(props: { body: string | undefined; section: string | null; filtered: number | undefined }): JSX.Element {
  const applied = appliedConditions(props.body, props.section);
  const entries = applied?.entries ?? [];
  return (
    <div className="empty empty-result" role="status" data-testid="empty-result">
      <p>
        {props.filtered !== undefined && props.filtered > 0
          ? `This page is empty: ${props.filtered} record${props.filtered === 1 ? '' : 's'} matched, all before the requested offset.`
          : 'The query matched nothing.'}
      </p>
      {entries.length > 0 ? (
        <>
          <p className="muted small">It was asked with:</p>
          <pre className="empty-result-conditions" data-testid="empty-result-conditions">
            {conditionsText(entries)}
          </pre>
        </>
      ) : (
        <p className="muted small">It had no filter, exclude or search: the collection holds no record the caller may read.</p>
      )}
    </div>
  );
}
