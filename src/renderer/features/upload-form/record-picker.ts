/**
 * The `uniqueObject` picker of an update upload: a retrieve of a few candidate records (searchable),
 * each shown by its id and a label field, and the `{"id": n}` a choice becomes.
 */
import type { DescribeModel, JsonObject, JsonValue, SingleQuery } from '../../../shared/protocol.ts';

export interface RecordOption {
  id: JsonValue;
  label: string;
}

export const PICKER_LIMIT = 50;

/** The field that names a record best: the first search field that is readable, else the first string field. */
export function labelField(model: DescribeModel): string | null {
  const readable = (name: string) => {
    const f = model.fields[name];
    return f !== undefined && !f.writeOnly && (f.type === 'string' || f.type === 'text');
  };
  return model.search.find(readable) ?? Object.keys(model.fields).find(readable) ?? null;
}

export function pickerQuery(namespace: string, model: DescribeModel, search: string): SingleQuery {
  const label = labelField(model);
  const meta: SingleQuery['__meta__'] = { namespace, intent: 'retrieve', limit: PICKER_LIMIT };
  if (search.trim() !== '') {
    // An all-digit search is most likely an id; the search fields would not find it.
    if (/^\d+$/.test(search.trim())) meta.filter = { id: Number(search.trim()) };
    else meta.search = { value: search.trim() };
  }
  return { __meta__: meta, id: null, ...(label ? { [label]: null } : {}) };
}

export function pickerOptions(payload: unknown, model: DescribeModel): RecordOption[] {
  if (!Array.isArray(payload)) return [];
  const label = labelField(model);
  return payload
    .filter((r): r is JsonObject => typeof r === 'object' && r !== null && !Array.isArray(r) && 'id' in r)
    .map((r) => {
      const text = label && typeof r[label] === 'string' ? (r[label] as string) : '';
      return { id: r.id as JsonValue, label: text ? `#${String(r.id)} · ${text}` : `#${String(r.id)}` };
    });
}

export function uniqueObjectText(id: JsonValue): string {
  return JSON.stringify({ id });
}
