/**
 * The boundary for `/jql` answers: turns a response body into the ResultView (result-view.ts).
 * Framework-free and pure, so it runs in the parse worker for large bodies and is unit-tested
 * without a DOM. Any server may answer, so nothing here throws: each part is read by its schema
 * (schema/envelope-schema.ts), a part that does not fit is replaced and named as a misfit, a part
 * nested too deeply is left out (the raw body has it), and counts that contradict the rows the
 * server sent are not shown as fact.
 */
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';
import { findDuplicateKeys } from './duplicate-keys.ts';
import type { Extras, JqlError, JsonValue, SystemInfo } from '../../shared/protocol.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.ts';
import { headOfList, LIST_CAPS, type ListCaps } from './count-caps.ts';
import { readErrors, readExtras, readLabel, readMessage, readNotices, readSystem } from './schema/envelope-schema.ts';
import { collectMisfits, misfit } from './schema/lenient.ts';
import type { EnvelopeShape, Misfit, ResultSection, ResultView } from './result-view.ts';

export interface NormalizeHints {
  /** The request asked for `render: only:data`: a 2xx body is then the payload itself. */
  renderOnlyData?: boolean;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const TOO_DEEP_SENTENCE = `The answer is nested too deeply to show (more than ${MAX_JSON_DEPTH} levels): it is kept as raw text.`;

export function detectShape(body: unknown, httpStatus: number, hints: NormalizeHints = {}): EnvelopeShape {
  const ok = httpStatus >= 200 && httpStatus < 300;
  if (hints.renderOnlyData && ok) return 'data-only';
  if (isObject(body)) {
    if ('__payload__' in body || '__errors__' in body || '__intent__' in body) return 'envelope';
    if ((body.status === 'OK' || body.status === 'ERROR') && 'data' in body) return 'flat';
  }
  return 'data-only';
}

/** Where each part of the answer lives in the two envelope shapes (docs/protocol.md "The envelope", "The flat shape"). */
const ENVELOPE_KEYS = {
  envelope: { payload: '__payload__', intent: '__intent__', message: '__message__', extras: '__extras__', errors: '__errors__', system: '__system__' },
  flat: { payload: 'data', intent: 'intent', message: 'message', extras: 'extras', errors: 'errors', system: 'system_info' },
} as const;

/** What a read carries along: whether some part was too deep, and the caps lists are read by. */
interface ReadState {
  tooDeep: boolean;
  caps: ListCaps;
}

/** The value at `key`, or null (with a misfit) when it is nested deeper than the console shows. */
function shallow(value: unknown, where: string, state: ReadState): unknown {
  if (!nestedDeeperThan(value, MAX_JSON_DEPTH - 1)) return value;
  state.tooDeep = true;
  misfit(where, '', undefined, `The server sent ${where ? `\`${where}\`` : 'an answer'} nested more than ${MAX_JSON_DEPTH} levels deep: it is not shown as a tree, see the raw answer.`);
  return null;
}

/**
 * Counts the server gives for the rows it sent must agree with them: a count that cannot be true is
 * dropped, with a sentence saying what the server claimed.
 */
function checkCounts(extras: Extras | null, payload: JsonValue, where: string): Extras | null {
  if (!extras || !Array.isArray(payload)) return extras;
  const rows = payload.length;
  const out = { ...extras };
  if (out.display !== undefined && out.display !== rows) {
    misfit('', '', out.display, `The server said it shows ${out.display.toLocaleString('en')} rows (\`${where}.display\`) but sent ${rows.toLocaleString('en')}: the count is not shown.`);
    delete out.display;
  }
  const shown = out.display ?? rows;
  if (out.filtered !== undefined && out.filtered < shown) {
    misfit('', '', out.filtered, `The server said ${out.filtered.toLocaleString('en')} match (\`${where}.filtered\`) but sent ${shown.toLocaleString('en')} rows: the count is not shown.`);
    delete out.filtered;
  }
  return out;
}

/**
 * The errors at `where`: only the first SHOWN_ERRORS entries (state.caps) are read (checked, turned into view
 * objects, walked for depth); the rest are counted. A misfit past them is therefore not named, while
 * a list within the cap reads, misfits and all, as if there were no cap.
 */
function readErrorList(raw: unknown, where: string, state: ReadState): { errors: JqlError[]; errorsUnread: number } {
  const { head, unread } = headOfList(raw, state.caps.errors);
  const list = shallow(head, where, state);
  return { errors: readErrors(list, where), errorsUnread: Array.isArray(list) ? unread : 0 };
}

/** `__system__` with only its first SHOWN_SQL statements read, the rest counted (as readErrorList). */
function readSystemInfo(raw: unknown, where: string, state: ReadState): { system: SystemInfo | null; sqlUnread: number } {
  const { head, unread } = isObject(raw) ? headOfList(raw.sql, state.caps.sql) : { head: undefined, unread: 0 };
  const system = readSystem(shallow(unread > 0 ? { ...(raw as Obj), sql: head } : raw, where, state), where);
  return { system, sqlUnread: system?.sql ? unread : 0 };
}

function section(name: string | null, raw: Obj, keys: { payload: string; intent: string; message: string; extras: string; errors: string; notices?: string }, prefix: string, state: ReadState): ResultSection {
  const at = (key: string) => `${prefix}${key}`;
  const payload = shallow(raw[keys.payload] ?? null, at(keys.payload), state) as JsonValue;
  const extras = checkCounts(readExtras(shallow(raw[keys.extras], at(keys.extras), state), at(keys.extras)), payload, at(keys.extras));
  const ownNotices = keys.notices ? shallow(raw[keys.notices], at(keys.notices), state) : null;
  const notices = ownNotices !== undefined && ownNotices !== null ? readNotices(ownNotices, at(keys.notices!)) : (extras?.notices ?? []);
  return {
    name,
    intent: readLabel(raw[keys.intent], at(keys.intent)),
    message: readMessage(raw[keys.message], at(keys.message)),
    payload,
    extras,
    ...readErrorList(raw[keys.errors], at(keys.errors), state),
    notices,
  };
}

function looksLikeSubquery(v: unknown): v is Obj {
  return isObject(v) && ('data' in v || 'errors' in v || 'extras' in v);
}

const SUBQUERY_KEYS = { payload: 'data', intent: 'intent', message: 'message', extras: 'extras', errors: 'errors', notices: 'notices' };

function readView(body: unknown, httpStatus: number, hints: NormalizeHints, caps: ListCaps): Omit<ResultView, 'misfits' | 'duplicateKeys'> {
  const shape = detectShape(body, httpStatus, hints);
  const httpFailed = httpStatus >= 400 || httpStatus === 0;
  const state: ReadState = { tooDeep: false, caps };
  if ((shape !== 'envelope' && shape !== 'flat') || !isObject(body)) {
    const payload = shallow(body, '', state) as JsonValue;
    const only: ResultSection = { name: null, intent: null, message: null, payload, extras: null, errors: [], errorsUnread: 0, notices: [] };
    return { httpStatus, shape, failed: httpFailed, intent: null, message: null, errors: [], errorsUnread: 0, system: null, sqlUnread: 0, sections: [only], isMulti: false, parseError: null, tooDeep: state.tooDeep };
  }
  const keys = ENVELOPE_KEYS[shape];
  const intent = readLabel(body[keys.intent], keys.intent);
  const { system, sqlUnread } = readSystemInfo(body[keys.system], keys.system, state);
  const payload = body[keys.payload];
  const isMulti = intent === 'multi' && isObject(payload) && Object.values(payload).every(looksLikeSubquery);
  if (isMulti) {
    const { errors, errorsUnread } = readErrorList(body[keys.errors], keys.errors, state);
    const sections = Object.entries(payload).map(([name, sub]) => section(name, sub as Obj, SUBQUERY_KEYS, `${keys.payload}.${name}.`, state));
    return {
      httpStatus,
      shape,
      failed: httpFailed || errors.length > 0 || errorsUnread > 0,
      intent,
      message: readMessage(body[keys.message], keys.message),
      errors,
      errorsUnread,
      system,
      sqlUnread,
      sections,
      isMulti: true,
      parseError: null,
      tooDeep: state.tooDeep,
    };
  }
  const only = section(null, body, keys, '', state);
  return {
    httpStatus,
    shape,
    failed: httpFailed || only.errors.length > 0 || only.errorsUnread > 0,
    intent: only.intent,
    message: only.message,
    errors: [],
    errorsUnread: 0,
    system,
    sqlUnread,
    sections: [only],
    isMulti: false,
    parseError: null,
    tooDeep: state.tooDeep,
  };
}

export function normalizeParsed(body: unknown, httpStatus: number, hints: NormalizeHints = {}, caps: ListCaps = LIST_CAPS): ResultView {
  const { value, misfits } = collectMisfits(() => readView(body, httpStatus, hints, caps));
  return { ...value, misfits: dedupe(misfits), duplicateKeys: null };
}

/** The same misfit in 1,000 errors is one sentence, with its count. */
function dedupe(misfits: Misfit[]): Misfit[] {
  if (misfits.length <= 1) return misfits;
  const seen = new Map<string, Misfit & { times: number }>();
  for (const m of misfits) {
    const key = m.sentence.replace(/\[\d+\]/g, '[]');
    const known = seen.get(key);
    if (known) known.times++;
    else seen.set(key, { ...m, times: 1 });
  }
  return [...seen.values()].map(({ times, ...m }) => (times > 1 ? { ...m, sentence: `${m.sentence} (and ${times - 1} more like it)` } : m));
}

/** A body that is not JSON (a proxy's HTML error page, an empty 502): shown as raw text only. */
export function notJsonView(httpStatus: number, reason: string): ResultView {
  return {
    httpStatus,
    shape: 'not-json',
    failed: true,
    intent: null,
    message: null,
    errors: [],
    errorsUnread: 0,
    system: null,
    sqlUnread: 0,
    sections: [],
    isMulti: false,
    parseError: reason,
    misfits: [],
    tooDeep: false,
    duplicateKeys: null,
  };
}

/** Parse + normalize in one step; what both the main thread and the parse worker call. */
export function normalizeText(text: string, httpStatus: number, hints: NormalizeHints = {}): ResultView {
  if (text.trim() === '') return notJsonView(httpStatus, 'The server answered with an empty body.');
  let body: unknown;
  try {
    body = parseJsonKeepingNumbers(text);
  } catch (err) {
    const looksHtml = /^\s*</.test(text);
    return notJsonView(httpStatus, `The body is not JSON${looksHtml ? ' (it looks like an HTML page, as a proxy or a web server answers)' : ''}: ${(err as Error).message}`);
  }
  // Only text that parsed is scanned; the scan names what JSON.parse resolved without a word.
  return { ...normalizeParsed(body, httpStatus, hints), duplicateKeys: findDuplicateKeys(text) };
}
