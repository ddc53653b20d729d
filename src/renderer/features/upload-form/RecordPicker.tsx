/**
 * The `uniqueObject` of an update upload: search the model's records and pick one (or type the JSON
 * by hand, e.g. `{"slug": "x"}` for another unique field).
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import type { DescribeModel, SingleQuery } from '../../../shared/protocol.ts';
import { ErrorList } from './FieldInput.tsx';
import { pickerOptions, pickerQuery, uniqueObjectText } from './record-picker.ts';
import styles from './upload-form.module.css';

export interface RecordPickerProps {
  connectionId: string;
  namespace: string;
  model: DescribeModel;
  value: string;
  errors: readonly string[];
  fetchRecords?: (query: SingleQuery) => Promise<unknown>;
  onChange: (uniqueObjectJson: string) => void;
}

export function RecordPicker({ connectionId, namespace, model, value, errors, fetchRecords, onChange }: RecordPickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const records = useQuery({
    queryKey: ['upload', 'picker', { connectionId, namespace, search: deferred }],
    queryFn: async () => pickerOptions(await fetchRecords!(pickerQuery(namespace, model, deferred)), model),
    enabled: fetchRecords !== undefined,
    staleTime: 10_000,
  });
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={`${styles.label} ${styles.required}`}>
        uniqueObject
      </label>
      <div>
        {fetchRecords && (
          <div className={styles.row}>
            <input className={styles.input} placeholder="Search records or type an id" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Search records" />
            <select
              className={styles.select}
              aria-label="Record to update"
              value=""
              onChange={(e) => {
                const option = records.data?.[Number(e.target.value)];
                if (option) onChange(uniqueObjectText(option.id));
              }}
            >
              <option value="">{records.isFetching ? 'Loading…' : records.isError ? 'Could not load records' : `Pick one of ${records.data?.length ?? 0}`}</option>
              {(records.data ?? []).map((o, i) => (
                <option key={JSON.stringify(o.id)} value={i}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <input id={id} className={styles.input} value={value} placeholder='{"id": 1}' onChange={(e) => onChange(e.target.value)} aria-invalid={errors.length > 0} />
        <ErrorList errors={errors} />
      </div>
    </div>
  );
}
