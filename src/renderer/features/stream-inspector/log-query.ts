/**
 * The search box over the event log. Free words must all appear (case-insensitive) in the event,
 * namespace, or record JSON; `key:value` terms filter on one column: `event:created`,
 * `ns:tickets.Ticket` (or `namespace:`), `id:42`, `sub:s1`, `seq:>1000` / `seq:<1000`, and
 * `replayed:true`. A term starting with `-` excludes. Gap and status markers always stay visible.
 */
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import type { LogEntry, LogEventEntry, LogPredicate } from './event-log.ts';

type Test = (entry: LogEventEntry) => boolean;

const recordText = new WeakMap<LogEventEntry, string>();

function textOf(entry: LogEventEntry): string {
  let text = recordText.get(entry);
  if (text === undefined) {
    text = `${entry.event} ${entry.namespace} ${stringifyKeepingNumbers(entry.record)}`.toLowerCase();
    recordText.set(entry, text);
  }
  return text;
}

/** Splits on spaces, keeping "quoted phrases" together. */
export function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /(-?)(?:(\w+):)?"([^"]*)"|(\S+)/g;
  for (let m = re.exec(query); m; m = re.exec(query)) {
    if (m[4] !== undefined) tokens.push(m[4]);
    else tokens.push(`${m[1]}${m[2] ? `${m[2]}:` : ''}${m[3]}`);
  }
  return tokens;
}

function columnTest(key: string, value: string): Test | null {
  const v = value.toLowerCase();
  switch (key.toLowerCase()) {
    case 'event':
      return (e) => e.event.toLowerCase() === v;
    case 'ns':
    case 'namespace':
      return (e) => e.namespace.toLowerCase() === v || e.namespace.toLowerCase().endsWith(`.${v}`);
    case 'id':
      return (e) => e.recordId !== null && String(e.recordId).toLowerCase() === v;
    case 'sub':
    case 'subscription':
      return (e) => e.subscription.toLowerCase() === v;
    case 'replayed':
      return (e) => e.replayed === (v === 'true' || v === 'yes');
    case 'seq': {
      const m = /^(>=|<=|>|<|=)?(\d+)$/.exec(value);
      if (!m) return null;
      const n = Number(m[2]);
      const op = m[1] ?? '=';
      return (e) => (op === '>' ? e.seq > n : op === '>=' ? e.seq >= n : op === '<' ? e.seq < n : op === '<=' ? e.seq <= n : e.seq === n);
    }
    default:
      return null;
  }
}

/** Null when the query is empty: no filter at all. */
export function compileLogQuery(query: string): LogPredicate | null {
  const tests: Test[] = [];
  for (const token of tokenize(query.trim())) {
    const negate = token.startsWith('-') && token.length > 1;
    const body = negate ? token.slice(1) : token;
    const colon = body.indexOf(':');
    let test: Test | null = null;
    if (colon > 0) test = columnTest(body.slice(0, colon), body.slice(colon + 1));
    if (!test) {
      const needle = body.toLowerCase();
      test = (e) => textOf(e).includes(needle);
    }
    const t = test;
    tests.push(negate ? (e) => !t(e) : t);
  }
  if (tests.length === 0) return null;
  return (entry: LogEntry) => entry.kind === 'marker' || tests.every((t) => t(entry));
}
