/**
 * The boundary reads at most SHOWN_ERRORS errors and SHOWN_SQL statements of an answer (issue 31:
 * 50,000 errors froze the window while each was checked). The cap must be invisible within it: the
 * same answers are read with the caps and read whole (caps of Infinity), and the views, counts, cut
 * notices and misfits must be the same; past the cap, the answer reads as its first entries plus a
 * count of the rest, and the rest is never touched.
 */
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LIST_CAPS, SHOWN_ERRORS, SHOWN_SQL } from '../../response/count-caps.ts';
import { normalizeParsed } from '../../response/normalize-envelope.ts';
import { allErrors, errorCount, type ResultView } from '../../response/result-view.ts';
import { ErrorsList } from './ErrorsList.tsx';
import { SqlPanel } from './SqlPanel.tsx';

const WHOLE = { errors: Infinity, sql: Infinity };
const CAP = Math.max(SHOWN_ERRORS, SHOWN_SQL);

const validError = fc.record({ code: fc.constantFrom('not_found', 'invalid_json', 'validation_error'), message: fc.string({ maxLength: 8 }) }, { requiredKeys: ['code', 'message'] });
const validSql = fc.record({ sql: fc.string({ maxLength: 8 }), params: fc.array(fc.integer(), { maxLength: 2 }), time_ms: fc.nat(50) });
/** Entries that do not fit: a wrong type in a key, or not an object at all. */
const badError = fc.oneof(fc.record({ code: fc.integer(), message: fc.string({ maxLength: 4 }) }), fc.constantFrom(null, 3, 'x', [1]));
const badSql = fc.oneof(fc.record({ sql: fc.integer(), params: fc.constant([]) }), fc.constantFrom(null, 'SELECT 1'));

/** Lengths around the cap are the interesting ones; short lists too. */
const length = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: CAP - 5, max: CAP + 20 }), fc.integer({ min: 0, max: CAP + 20 }));

/** A list of `n` entries cycled from a small pool (building 520 random entries per run is slow). */
const listOf = (entry: fc.Arbitrary<unknown>) =>
  fc.tuple(length, fc.array(entry, { minLength: 1, maxLength: 6 })).map(([n, pool]) => Array.from({ length: n }, (_, i) => pool[i % pool.length]));

const answer = (clean: boolean) => {
  const errors = listOf(clean ? validError : fc.oneof(validError, badError));
  const sql = listOf(clean ? validSql : fc.oneof(validSql, badSql));
  const single = fc.record({ __payload__: fc.constant([]), __errors__: errors, __system__: fc.record({ queries: fc.nat(9), time_ms: fc.nat(9), sql }) });
  const multi = fc.tuple(errors, errors, sql).map(([a, b, s]) => ({ __intent__: 'multi', __payload__: { one: { data: [], errors: a }, two: { data: null, errors: b } }, __errors__: a, __system__: { queries: 1, time_ms: 1, sql: s } }));
  return fc.oneof(single, multi);
};

/** The answer with each list cut to the caps, as a server that sent no more would have sent it. */
function cutToCaps(body: Record<string, unknown>): Record<string, unknown> {
  const errors = (list: unknown) => (Array.isArray(list) ? list.slice(0, SHOWN_ERRORS) : list);
  const system = body.__system__ as { sql: unknown[] };
  const payload = body.__payload__;
  return {
    ...body,
    __errors__: errors(body.__errors__),
    __system__: { ...system, sql: system.sql.slice(0, SHOWN_SQL) },
    __payload__: Array.isArray(payload) ? payload : Object.fromEntries(Object.entries(payload as Record<string, { errors: unknown }>).map(([k, sub]) => [k, { ...sub, errors: errors(sub.errors) }])),
  };
}

const longest = (body: Record<string, unknown>): { errors: number; sql: number } => {
  const lists = [body.__errors__, ...(Array.isArray(body.__payload__) ? [] : Object.values(body.__payload__ as Record<string, { errors: unknown[] }>).map((s) => s.errors))] as unknown[][];
  return { errors: Math.max(...lists.map((l) => l.length)), sql: (body.__system__ as { sql: unknown[] }).sql.length };
};

/** What the user sees of the errors and statements: the Errors and SQL views as drawn. */
function drawn(view: ResultView): string {
  const noop = () => undefined;
  return (
    renderToStaticMarkup(<ErrorsList errors={allErrors(view)} total={errorCount(view)} onReveal={noop} />) +
    renderToStaticMarkup(<SqlPanel system={view.system} unread={view.sqlUnread} level={2} onAskForSql={noop} />)
  );
}

/** The view less what only the capped read says (the counts of what it left unread). */
const readPart = (view: ResultView) => ({ ...view, errorsUnread: 0, sqlUnread: 0, failed: null, sections: view.sections.map((s) => ({ ...s, errorsUnread: 0 })) });

describe('the boundary reads long lists only up to the views’ caps', () => {
  it('reads an answer within the caps exactly as a read of it whole, misfits included', () => {
    fc.assert(
      fc.property(answer(false), (body) => {
        const capped = normalizeParsed(body, 200);
        const whole = normalizeParsed(body, 200, {}, WHOLE);
        const { errors, sql } = longest(body);
        if (errors <= SHOWN_ERRORS && sql <= SHOWN_SQL) expect(capped).toEqual(whole);
        // Past the caps: the first entries read as if the server had sent no more (the misfits among
        // them named the same), and the rest is only counted.
        const cut = normalizeParsed(cutToCaps(body), 200, {}, WHOLE);
        expect(readPart(capped)).toEqual(readPart(cut));
        expect(capped.sqlUnread).toBe(Math.max(0, sql - SHOWN_SQL));
        // Errors of the request as a whole (a multi-query's own, a single query's) fail it, read or not.
        const unreadOfRequest = capped.isMulti ? capped.errorsUnread : capped.sections[0]!.errorsUnread;
        expect(capped.failed).toBe(cut.failed || unreadOfRequest > 0);
      }),
      { numRuns: 80 },
    );
  });

  it('shows the same errors, statements, counts and cut notices as a read of the whole answer', () => {
    fc.assert(
      fc.property(answer(true), (body) => {
        const capped = normalizeParsed(body, 200);
        const whole = normalizeParsed(body, 200, {}, WHOLE);
        expect(errorCount(capped)).toBe(errorCount(whole));
        expect(capped.system?.queries).toBe(whole.system?.queries);
        expect(capped.failed).toBe(whole.failed);
        expect(allErrors(capped)).toEqual(allErrors(whole));
        expect(drawn(capped)).toBe(drawn(whole));
      }),
      { numRuns: 60 },
    );
  });

  it('never touches the errors and statements past the caps of a 50,000-entry answer', () => {
    const N = 50_000;
    let touched = 0;
    /** An entry that counts each time the boundary looks into it. */
    const watched = (i: number, fields: Record<string, unknown>) =>
      i < CAP
        ? fields
        : new Proxy(fields, {
            get: (target, key) => (touched++, Reflect.get(target, key)),
            ownKeys: (target) => (touched++, Reflect.ownKeys(target)),
          });
    const body = {
      __payload__: [],
      __errors__: Array.from({ length: N }, (_, i) => watched(i, { code: 'not_found', message: `no ${i}` })),
      __system__: { queries: N, time_ms: 1, sql: Array.from({ length: N }, (_, i) => watched(i, { sql: `SELECT ${i}`, params: [], time_ms: 0 })) },
    };
    const view = normalizeParsed(body, 200);
    expect(touched).toBe(0);
    expect(view.sections[0]!.errors).toHaveLength(SHOWN_ERRORS);
    expect(view.sections[0]!.errorsUnread).toBe(N - SHOWN_ERRORS);
    expect(view.system!.sql).toHaveLength(SHOWN_SQL);
    expect(view.sqlUnread).toBe(N - SHOWN_SQL);
    expect(errorCount(view)).toBe(N);
    expect(view.failed).toBe(true);
    const html = drawn(view);
    expect(html).toContain('Showing the first 500 of 50,000 errors: 49,500 more are in the Raw view.');
    expect(html).toContain('Showing the first 500 of 50,000 statements: 49,500 more are in the Raw view.');
    expect(LIST_CAPS).toEqual({ errors: SHOWN_ERRORS, sql: SHOWN_SQL });
  });
});
