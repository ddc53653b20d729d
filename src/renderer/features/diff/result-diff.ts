/**
 * Two runs of one document, side by side: each side read from either envelope shape (through the
 * shared normalizer in response/), then per section (one for a single query, one per key of a
 * multi-query) the payload diff, the `__extras__` key by key and the errors of each side, plus the
 * run's status, timing, size and SQL count.
 */
import type { Extras, JqlError, JsonValue } from '../../../shared/protocol.ts';
import { normalizeText, type NormalizeHints } from '../../response/normalize-envelope.ts';
import type { ResultSection, ResultView } from '../../response/result-view.ts';
import { diffPayloads, jsonEqual, type PayloadDiff } from './record-diff.ts';

export interface DiffSide {
  /** The connection's name. */
  label: string;
  /** HTTP status; 0 when there was no answer. */
  status: number;
  timeMs: number;
  size: number;
  /** Null when there was no answer (see `failure`). */
  view: ResultView | null;
  failure: string | null;
}

export function sideFromBody(label: string, status: number, timeMs: number, body: string, hints: NormalizeHints = {}): DiffSide {
  return { label, status, timeMs, size: new TextEncoder().encode(body).byteLength, view: normalizeText(body, status, hints), failure: null };
}

export function sideFromFailure(label: string, message: string, timeMs = 0): DiffSide {
  return { label, status: 0, timeMs, size: 0, view: null, failure: message };
}

export interface CompareRow {
  key: string;
  left: JsonValue | undefined;
  right: JsonValue | undefined;
  same: boolean;
}

export interface SectionDiff {
  /** Multi-query key, or null for a single query. */
  name: string | null;
  presentIn: 'both' | 'left' | 'right';
  intent: { left: string | null; right: string | null };
  payload: PayloadDiff | null;
  extras: CompareRow[];
  errors: { left: JqlError[]; right: JqlError[] };
  message: { left: string | null; right: string | null };
}

export interface ResultDiff {
  left: DiffSide;
  right: DiffSide;
  sections: SectionDiff[];
  /** Errors of each request as a whole (not of one subquery), or its failure to answer. */
  requestErrors: { left: string[]; right: string[] };
  timing: CompareRow[];
  /** No difference in status, payloads, extras or errors (timing aside). */
  same: boolean;
}

const EXTRAS_FIRST = ['filtered', 'display', 'queries', 'limit', 'offset', 'draw', 'cached', 'notices'];
/** Extras that measure the run rather than describe the answer: listed, never counted as a difference. */
const VOLATILE_EXTRAS = new Set(['queries']);

export function compareExtras(left: Extras | null, right: Extras | null): CompareRow[] {
  const l = left ?? {};
  const r = right ?? {};
  const keys = [...new Set([...Object.keys(l), ...Object.keys(r)])].sort((a, b) => {
    const ia = EXTRAS_FIRST.indexOf(a);
    const ib = EXTRAS_FIRST.indexOf(b);
    return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib) || a.localeCompare(b);
  });
  return keys.map((key) => ({ key, left: l[key], right: r[key], same: jsonEqual(l[key], r[key]) }));
}

function requestErrors(side: DiffSide): string[] {
  if (side.failure) return [side.failure];
  const view = side.view;
  if (!view) return [];
  if (view.parseError) return [view.parseError];
  const read = view.errors.map((e) => `${e.code}: ${e.message}`);
  return view.errorsUnread > 0 ? [...read, unreadSentence(view.errorsUnread)] : read;
}

/** Errors past the boundary's cap (count-caps.ts) are counted, not read: only their count is compared. */
function unreadSentence(unread: number): string {
  return `${unread.toLocaleString('en')} more ${unread === 1 ? 'error is' : 'errors are'} in the raw answer (not compared)`;
}

function sectionsByName(view: ResultView | null): Map<string | null, ResultSection> {
  return new Map((view?.sections ?? []).map((s) => [s.name, s]));
}

function diffSection(name: string | null, l: ResultSection | undefined, r: ResultSection | undefined): SectionDiff {
  return {
    name,
    presentIn: l && r ? 'both' : l ? 'left' : 'right',
    intent: { left: l?.intent ?? null, right: r?.intent ?? null },
    payload: l && r ? diffPayloads(l.payload, r.payload) : null,
    extras: compareExtras(l?.extras ?? null, r?.extras ?? null),
    errors: { left: l?.errors ?? [], right: r?.errors ?? [] },
    message: { left: l?.message ?? null, right: r?.message ?? null },
  };
}

function timing(left: DiffSide, right: DiffSide): CompareRow[] {
  const queriesOf = (s: DiffSide) => s.view?.system?.queries ?? s.view?.sections.reduce((n, sec) => n + (typeof sec.extras?.queries === 'number' ? sec.extras.queries : 0), 0) ?? null;
  const row = (key: string, l: JsonValue | undefined, r: JsonValue | undefined): CompareRow => ({ key, left: l, right: r, same: jsonEqual(l, r) });
  return [
    row('HTTP status', left.status, right.status),
    row('time (ms)', Math.round(left.timeMs), Math.round(right.timeMs)),
    row('server time (ms)', left.view?.system?.time_ms ?? null, right.view?.system?.time_ms ?? null),
    row('SQL queries', queriesOf(left), queriesOf(right)),
    row('size (bytes)', left.size, right.size),
  ];
}

function sameErrors(a: JqlError[], b: JqlError[]): boolean {
  return a.length === b.length && a.every((e, i) => e.code === b[i]!.code && e.field === b[i]!.field);
}

export function diffResults(left: DiffSide, right: DiffSide): ResultDiff {
  const l = sectionsByName(left.view);
  const r = sectionsByName(right.view);
  const names = [...l.keys(), ...[...r.keys()].filter((k) => !l.has(k))];
  const sections = names.map((name) => diffSection(name, l.get(name), r.get(name)));
  const errors = { left: requestErrors(left), right: requestErrors(right) };
  const same =
    left.status === right.status &&
    errors.left.join('\n') === errors.right.join('\n') &&
    sections.every(
      (s) =>
        s.presentIn === 'both' &&
        (s.payload?.same ?? true) &&
        s.extras.every((row) => row.same || VOLATILE_EXTRAS.has(row.key)) &&
        sameErrors(s.errors.left, s.errors.right) &&
        l.get(s.name)?.errorsUnread === r.get(s.name)?.errorsUnread,
    );
  return { left, right, sections, requestErrors: errors, timing: timing(left, right), same };
}

export interface DiffCounts {
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
}

export function countChanges(diff: ResultDiff): DiffCounts {
  const counts: DiffCounts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const s of diff.sections) {
    if (!s.payload) continue;
    counts.added += s.payload.added.length;
    counts.removed += s.payload.removed.length;
    counts.changed += s.payload.changed.length;
    counts.unchanged += s.payload.unchanged;
  }
  return counts;
}

/** Runs the document on both connections at once; a run that throws becomes a failed side. */
export async function runDiff(
  run: (connectionId: string, document: string) => Promise<DiffSide>,
  document: string,
  left: { id: string; label: string },
  right: { id: string; label: string },
): Promise<ResultDiff> {
  const safe = (c: { id: string; label: string }) => run(c.id, document).catch((err: unknown) => sideFromFailure(c.label, (err as Error).message ?? String(err)));
  const [l, r] = await Promise.all([safe(left), safe(right)]);
  return diffResults(l, r);
}
