/**
 * The subscription builder (namespace, schema, events, filter, fields, since) and the list of live
 * subscriptions with their state, cursor and counts. The filter box can be replaced by the app's
 * Monaco editor (same completion as queries) through `renderFilterEditor`.
 */
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { DescribeResult } from '../../../shared/protocol.ts';
import type { SubscriptionState } from './stream-client.ts';
import { firstEventWait } from './stream-waiting.ts';
import type { StreamSchema, SubscriptionSpec } from './stream-messages.ts';
import styles from './stream-inspector.module.css';
import { defaultStreamNamespace, describeSpec, emptyDraft, filterKeySuggestions, insertFilterKey, STANDARD_EVENTS, streamNamespaces, validateDraft, type DraftErrors, type SubscriptionDraft } from './subscription-draft.ts';

export interface FilterEditorProps {
  value: string;
  onChange: (value: string) => void;
  namespace: string;
}

export interface SubscriptionBuilderProps {
  describe: DescribeResult | null;
  onSubscribe: (spec: SubscriptionSpec, since: number | null) => void;
  renderFilterEditor?: (props: FilterEditorProps) => ReactNode;
}

export function SubscriptionBuilder({ describe, onSubscribe, renderFilterEditor }: SubscriptionBuilderProps) {
  const namespaces = useMemo(() => streamNamespaces(describe), [describe]);
  const first = defaultStreamNamespace(describe);
  const [draft, setDraft] = useState<SubscriptionDraft>(() => emptyDraft(first));
  const [errors, setErrors] = useState<DraftErrors>({});
  const listId = useId();
  const known = namespaces.find((n) => n.namespace === draft.namespace.trim());
  const keys = useMemo(() => filterKeySuggestions(describe, draft.namespace.trim()), [describe, draft.namespace]);
  const set = (patch: Partial<SubscriptionDraft>) => setDraft((d) => ({ ...d, ...patch }));
  // The schema may arrive after the builder is drawn: offer its first model if none is typed yet.
  useEffect(() => {
    if (first) setDraft((d) => (d.namespace === '' ? { ...d, namespace: first } : d));
  }, [first]);

  const submit = () => {
    const result = validateDraft(draft, describe);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    onSubscribe(result.spec, result.since);
  };

  return (
    <form
      className={styles.box}
      aria-label="New subscription"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 className={styles.title}>Subscribe</h3>
      <div className={styles.row}>
        <input className={styles.input} list={listId} aria-label="Namespace" placeholder="app.Model" value={draft.namespace} onChange={(e) => set({ namespace: e.target.value })} />
        <datalist id={listId}>
          {/* At most a few hundred suggestions: a describe may name 100,000 namespaces. */}
          {namespaces.filter((n) => n.namespace.includes(draft.namespace.trim())).slice(0, 300).map((n) => (
            <option key={n.namespace} value={n.namespace}>
              {n.schema}
            </option>
          ))}
        </datalist>
        <select className={styles.select} aria-label="Schema" value={known?.schema ?? draft.schema} disabled={known !== undefined} onChange={(e) => set({ schema: e.target.value as StreamSchema })}>
          <option value="model">model</option>
          <option value="nosql">nosql</option>
        </select>
      </div>
      {errors.namespace && <p className={styles.error}>{errors.namespace}</p>}
      <div className={styles.row} role="group" aria-label="Events">
        {STANDARD_EVENTS.map((e) => (
          <label key={e}>
            <input type="checkbox" checked={draft.events[e]} onChange={(ev) => set({ events: { ...draft.events, [e]: ev.target.checked } })} /> {e}
          </label>
        ))}
        <input className={styles.input} aria-label="Other events" placeholder="other events, comma-separated" value={draft.otherEvents} onChange={(e) => set({ otherEvents: e.target.value })} />
      </div>
      {errors.events && <p className={styles.error}>{errors.events}</p>}
      <label className={styles.hint}>filter (query syntax)</label>
      {renderFilterEditor ? (
        renderFilterEditor({ value: draft.filterText, onChange: (filterText) => set({ filterText }), namespace: draft.namespace.trim() })
      ) : (
        <>
          <textarea className={styles.textarea} aria-label="Filter" placeholder='{"status": "open"}' value={draft.filterText} onChange={(e) => set({ filterText: e.target.value })} />
          {keys.length > 0 && (
            <select className={styles.select} aria-label="Insert a filter key" value="" onChange={(e) => set({ filterText: insertFilterKey(draft.filterText, e.target.value) })}>
              <option value="">Insert a filter key…</option>
              {keys.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </>
      )}
      {errors.filter && <p className={styles.error}>{errors.filter}</p>}
      <label className={styles.hint}>fields</label>
      <textarea className={styles.textarea} aria-label="Fields" placeholder='{"title": null, "assignee": {"username": null}}' value={draft.fieldsText} onChange={(e) => set({ fieldsText: e.target.value })} />
      {errors.fields && <p className={styles.error}>{errors.fields}</p>}
      <div className={styles.row}>
        <input className={styles.input} aria-label="Replay since seq" placeholder="since seq (optional)" inputMode="numeric" value={draft.sinceText} onChange={(e) => set({ sinceText: e.target.value })} />
        <button type="submit" className={styles.button}>
          Subscribe
        </button>
      </div>
      {errors.since && <p className={styles.error}>{errors.since}</p>}
    </form>
  );
}

/** `now`: the panel's clock, for how long an active subscription has waited for its first event. */
function waitNote(s: SubscriptionState, now: number): string {
  const wait = firstEventWait(s, now);
  return wait ? ` · ${wait}` : '';
}

export function SubscriptionList({ subscriptions, now, onUnsubscribe, onRetry }: { subscriptions: SubscriptionState[]; now: number; onUnsubscribe: (id: string) => void; onRetry: (id: string) => void }) {
  return (
    <div className={styles.box}>
      <h3 className={styles.title}>Subscriptions ({subscriptions.length})</h3>
      {subscriptions.length === 0 && <p className={styles.hint}>None yet.</p>}
      <ul className={styles.subList}>
        {subscriptions.map((s) => (
          <li key={s.id} className={styles.subItem} data-subscription={s.id}>
            <span>
              <strong>{s.id}</strong> {describeSpec(s.spec)}
            </span>
            <span className={styles.hint}>
              {s.status} · seq {s.cursor ?? '—'} · {s.received} events{s.duplicates > 0 ? ` · ${s.duplicates} duplicates dropped` : ''}
              {waitNote(s, now)}
            </span>
            {s.error && (
              <p className={styles.error}>
                {s.error.code}: {s.error.message}
              </p>
            )}
            <div className={styles.row}>
              {s.status === 'error' && (
                <button type="button" className={styles.button} onClick={() => onRetry(s.id)}>
                  Retry
                </button>
              )}
              <button type="button" className={styles.button} onClick={() => onUnsubscribe(s.id)}>
                Unsubscribe
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
