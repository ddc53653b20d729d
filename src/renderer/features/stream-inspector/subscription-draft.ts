/**
 * The subscription builder's form and its checks: namespace (models and NoSQL collections from
 * describe, or any name, since controllers may emit their own events), event kinds, a filter in the
 * query syntax (keys checked against the model's fields and lookups when describe knows them), and
 * a `fields` selection.
 */
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { FILTER_LOOKUPS, type DescribeResult, type JsonObject, type JsonValue } from '../../../shared/protocol.ts';
import type { StreamSchema, SubscriptionSpec } from './stream-messages.ts';

export const STANDARD_EVENTS = ['created', 'updated', 'deleted'] as const;

export interface SubscriptionDraft {
  namespace: string;
  schema: StreamSchema;
  events: Record<(typeof STANDARD_EVENTS)[number], boolean>;
  /** Comma-separated custom event names (controllers may emit their own). */
  otherEvents: string;
  filterText: string;
  fieldsText: string;
  /** Optional seq to replay from. */
  sinceText: string;
}

export type DraftErrors = Partial<Record<'namespace' | 'events' | 'filter' | 'fields' | 'since', string>>;

export type DraftResult = { ok: true; spec: SubscriptionSpec; since: number | null } | { ok: false; errors: DraftErrors };

export function emptyDraft(namespace = ''): SubscriptionDraft {
  return { namespace, schema: 'model', events: { created: true, updated: true, deleted: true }, otherEvents: '', filterText: '', fieldsText: '', sinceText: '' };
}

export interface StreamNamespace {
  namespace: string;
  schema: StreamSchema;
}

export function streamNamespaces(describe: DescribeResult | null): StreamNamespace[] {
  if (!describe) return [];
  const out: StreamNamespace[] = [];
  for (const [app, spec] of Object.entries(describe.apps)) {
    for (const name of Object.keys(spec.models ?? {})) out.push({ namespace: `${app}.${name}`, schema: 'model' });
    for (const name of Object.keys(spec.collections ?? {})) out.push({ namespace: `${app}.${name}`, schema: 'nosql' });
  }
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace));
}

/**
 * The namespace a new subscription starts on: the workspace's first model as describe lists it (the
 * built-in system.User only when the workspace has none), never a NoSQL collection because its name
 * sorts first.
 */
export function defaultStreamNamespace(describe: DescribeResult | null): string {
  if (!describe) return '';
  const models = Object.entries(describe.apps).flatMap(([app, spec]) => Object.keys(spec.models ?? {}).map((name) => ({ app, namespace: `${app}.${name}` })));
  return (models.find((m) => m.app !== 'system') ?? models[0])?.namespace ?? streamNamespaces(describe)[0]?.namespace ?? '';
}

/** Filter keys for completion: every readable field with every lookup it allows. */
export function filterKeySuggestions(describe: DescribeResult | null, namespace: string): string[] {
  const [app, name] = namespace.split('.');
  const model = app && name ? describe?.apps[app]?.models?.[name] : undefined;
  if (!model) return [];
  const keys: string[] = ['id', 'id__in'];
  for (const [field, spec] of Object.entries(model.fields)) {
    if (spec.writeOnly || spec.lookups.length === 0) continue;
    keys.push(field);
    for (const lookup of spec.lookups) if (lookup !== 'exact') keys.push(`${field}__${lookup}`);
  }
  return keys;
}

/**
 * Adds `key` to the filter JSON with a placeholder value for the user to fill; a filter that is not
 * a JSON object yet is left alone except for the key appended on a new line.
 */
export function insertFilterKey(filterText: string, key: string): string {
  if (key === '') return filterText;
  const placeholder = key.endsWith('__in') || key.endsWith('__range') ? [] : key.endsWith('__isnull') ? true : '';
  if (filterText.trim() === '') return JSON.stringify({ [key]: placeholder }, null, 2);
  const parsed = parseJsonObject(filterText);
  if ('error' in parsed) return `${filterText}\n"${key}": `;
  return stringifyKeepingNumbers({ ...parsed.value, [key]: placeholder }, 2);
}

/**
 * A filter or selection as typed. Not JSON.parse: a filter on id 9007199254740993 must not ask for
 * 9007199254740992 (another record); such a number is kept as its digits (shared/big-number.ts) and
 * the stream client writes it back as them.
 */
function parseJsonObject(text: string): { value: JsonObject } | { error: string } {
  try {
    const value = parseJsonKeepingNumbers(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'must be a JSON object' };
    return { value: value as JsonObject };
  } catch (err) {
    return { error: `is not valid JSON (${(err as Error).message})` };
  }
}

const LOOKUPS = new Set<string>(FILTER_LOOKUPS);

/** Unknown first path segments or lookups of a model filter; null when it reads fine. */
function filterProblem(filter: JsonObject, describe: DescribeResult | null, namespace: string): string | null {
  const [app, name] = namespace.split('.');
  const model = app && name ? describe?.apps[app]?.models?.[name] : undefined;
  if (!model) return null;
  for (const key of Object.keys(filter)) {
    const parts = key.split(/__|\./);
    const last = parts.at(-1)!;
    const lookup = parts.length > 1 && LOOKUPS.has(last) ? last : null;
    const field = parts[0]!;
    if (field !== 'id' && !(field in model.fields) && !(field in model.relations)) return `"${key}": ${namespace} has no field "${field}"`;
    const spec = model.fields[field];
    if (lookup && spec && parts.length === 2 && !spec.lookups.includes(lookup as (typeof FILTER_LOOKUPS)[number])) return `"${key}": ${field} does not take the lookup "${lookup}"`;
  }
  return null;
}

function fieldsProblem(fields: JsonValue): string | null {
  if (fields === null) return null;
  if (typeof fields !== 'object' || Array.isArray(fields)) return 'each field is asked with null, or with an object for a nested selection';
  for (const value of Object.values(fields)) {
    const problem = fieldsProblem(value);
    if (problem) return problem;
  }
  return null;
}

export function validateDraft(draft: SubscriptionDraft, describe: DescribeResult | null): DraftResult {
  const errors: DraftErrors = {};
  const namespace = draft.namespace.trim();
  const known = streamNamespaces(describe).find((n) => n.namespace === namespace);
  if (!/^[A-Za-z_][\w]*\.[A-Za-z_][\w]*$/.test(namespace)) errors.namespace = 'Give a namespace as app.Name, e.g. tickets.Ticket';

  const other = draft.otherEvents
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const standard = STANDARD_EVENTS.filter((e) => draft.events[e]);
  if (standard.length === 0 && other.length === 0) errors.events = 'Pick at least one event';

  const spec: SubscriptionSpec = { namespace, schema: known?.schema ?? draft.schema };
  // All three standard kinds and nothing else: send no `events`, so custom events come too.
  if (standard.length < STANDARD_EVENTS.length || other.length > 0) spec.events = [...standard, ...other];

  if (draft.filterText.trim() !== '') {
    const parsed = parseJsonObject(draft.filterText);
    if ('error' in parsed) errors.filter = `The filter ${parsed.error}`;
    else {
      const problem = filterProblem(parsed.value, describe, namespace);
      if (problem) errors.filter = problem;
      else if (Object.keys(parsed.value).length > 0) spec.filter = parsed.value;
    }
  }
  if (draft.fieldsText.trim() !== '') {
    const parsed = parseJsonObject(draft.fieldsText);
    if ('error' in parsed) errors.fields = `The fields ${parsed.error}`;
    else {
      const problem = fieldsProblem(parsed.value);
      if (problem) errors.fields = problem;
      else if (Object.keys(parsed.value).length > 0) spec.fields = parsed.value;
    }
  }
  let since: number | null = null;
  if (draft.sinceText.trim() !== '') {
    const n = Number(draft.sinceText.trim());
    if (!Number.isSafeInteger(n) || n < 0) errors.since = 'since is a sequence number (an integer ≥ 0)';
    else since = n;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, spec, since };
}

export function describeSpec(spec: SubscriptionSpec): string {
  const events = spec.events ? spec.events.join(', ') : 'all events';
  const filter = spec.filter ? ` where ${stringifyKeepingNumbers(spec.filter)}` : '';
  return `${spec.namespace} · ${events}${filter}`;
}
