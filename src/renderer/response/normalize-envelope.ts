/**
 * Turns a parsed response body into the ResultView (result-view.ts). Framework-free and pure, so it
 * runs in the parse worker for large bodies and is unit-tested without a DOM. It is lenient: any
 * server may answer, so a missing or ill-typed key degrades to null rather than throwing.
 */
import type { Extras, JqlError, JsonValue, SystemInfo } from '../../shared/protocol.ts';
import type { EnvelopeShape, ResultSection, ResultView } from './result-view.ts';

export interface NormalizeHints {
  /** The request asked for `render: only:data`: a 2xx body is then the payload itself. */
  renderOnlyData?: boolean;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function errorsOf(v: unknown): JqlError[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((e) => {
    const error: JqlError = {
      code: (typeof e.code === 'string' ? e.code : 'internal_error') as JqlError['code'],
      message: typeof e.message === 'string' ? e.message : String(e.code ?? 'Unknown error'),
    };
    if (typeof e.field === 'string') error.field = e.field;
    if (Array.isArray(e.path)) {
      error.path = e.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
    }
    if (isObject(e.detail)) error.detail = e.detail as unknown as JqlError['detail'];
    return error;
  });
}

const extrasOf = (v: unknown): Extras | null => (isObject(v) ? (v as Extras) : null);

function systemOf(v: unknown): SystemInfo | null {
  if (!isObject(v)) return null;
  return {
    queries: typeof v.queries === 'number' ? v.queries : 0,
    time_ms: typeof v.time_ms === 'number' ? v.time_ms : 0,
    ...(Array.isArray(v.sql) ? { sql: v.sql as SystemInfo['sql'] } : {}),
  };
}

function noticesOf(...sources: unknown[]): string[] {
  for (const s of sources) {
    if (Array.isArray(s)) return s.filter((n): n is string => typeof n === 'string');
  }
  return [];
}

/** The keys every envelope variant has in common, before deciding single vs multi. */
interface Common {
  shape: EnvelopeShape;
  payload: JsonValue;
  intent: string | null;
  message: string | null;
  extras: Extras | null;
  errors: JqlError[];
  system: SystemInfo | null;
}

export function detectShape(body: unknown, httpStatus: number, hints: NormalizeHints = {}): EnvelopeShape {
  const ok = httpStatus >= 200 && httpStatus < 300;
  if (hints.renderOnlyData && ok) return 'data-only';
  if (isObject(body)) {
    if ('__payload__' in body || '__errors__' in body || '__intent__' in body) return 'envelope';
    if ((body.status === 'OK' || body.status === 'ERROR') && 'data' in body) return 'flat';
  }
  return 'data-only';
}

/** Where each part of the answer lives in the two envelope shapes (PROTOCOL.md 3 and 3.3). */
const ENVELOPE_KEYS = {
  envelope: { payload: '__payload__', intent: '__intent__', message: '__message__', extras: '__extras__', errors: '__errors__', system: '__system__' },
  flat: { payload: 'data', intent: 'intent', message: 'message', extras: 'extras', errors: 'errors', system: 'system_info' },
} as const;

function commonOf(body: unknown, shape: EnvelopeShape): Common {
  if ((shape === 'envelope' || shape === 'flat') && isObject(body)) {
    const keys = ENVELOPE_KEYS[shape];
    return {
      shape,
      payload: (body[keys.payload] ?? null) as JsonValue,
      intent: str(body[keys.intent]),
      message: str(body[keys.message]),
      extras: extrasOf(body[keys.extras]),
      errors: errorsOf(body[keys.errors]),
      system: systemOf(body[keys.system]),
    };
  }
  return { shape, payload: body as JsonValue, intent: null, message: null, extras: null, errors: [], system: null };
}

function looksLikeSubquery(v: unknown): boolean {
  return isObject(v) && ('data' in v || 'errors' in v || 'extras' in v);
}

function subSections(payload: JsonValue): ResultSection[] {
  if (!isObject(payload)) return [];
  return Object.entries(payload).map(([name, raw]) => {
    const sub = isObject(raw) ? raw : {};
    const extras = extrasOf(sub.extras);
    return {
      name,
      intent: str(sub.intent),
      message: str(sub.message),
      payload: (sub.data ?? null) as JsonValue,
      extras,
      errors: errorsOf(sub.errors),
      notices: noticesOf(sub.notices, extras?.notices),
    };
  });
}

export function normalizeParsed(body: unknown, httpStatus: number, hints: NormalizeHints = {}): ResultView {
  const shape = detectShape(body, httpStatus, hints);
  const c = commonOf(body, shape);
  const isMulti =
    c.intent === 'multi' && isObject(c.payload) && Object.values(c.payload).every(looksLikeSubquery);
  const httpFailed = httpStatus >= 400 || httpStatus === 0;
  if (isMulti) {
    return {
      httpStatus,
      shape,
      failed: httpFailed || c.errors.length > 0,
      intent: c.intent,
      message: c.message,
      errors: c.errors,
      system: c.system,
      sections: subSections(c.payload),
      isMulti: true,
      parseError: null,
    };
  }
  const section: ResultSection = {
    name: null,
    intent: c.intent,
    message: c.message,
    payload: c.payload,
    extras: c.extras,
    errors: c.errors,
    notices: noticesOf(c.extras?.notices),
  };
  return {
    httpStatus,
    shape,
    failed: httpFailed || c.errors.length > 0,
    intent: c.intent,
    message: c.message,
    errors: [],
    system: c.system,
    sections: [section],
    isMulti: false,
    parseError: null,
  };
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
    system: null,
    sections: [],
    isMulti: false,
    parseError: reason,
  };
}

/** Parse + normalize in one step; what both the main thread and the parse worker call. */
export function normalizeText(text: string, httpStatus: number, hints: NormalizeHints = {}): ResultView {
  if (text.trim() === '') return notJsonView(httpStatus, 'The server answered with an empty body.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return notJsonView(httpStatus, `The body is not JSON: ${(err as Error).message}`);
  }
  return normalizeParsed(body, httpStatus, hints);
}
