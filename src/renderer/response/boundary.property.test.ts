/**
 * The boundary's promise, checked with random input (fast-check): whatever a server sends, each
 * reader returns, never throws, and hands on values of the types it says. One property per schema:
 * the envelope (both shapes, errors, extras, __system__, subqueries), describe, stream frames,
 * login, the signed-in user and /healthz.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeParsed, normalizeText } from './normalize-envelope.ts';
import { readHealth, readLogin, readUser } from './schema/account-schema.ts';
import { readDescribe } from './schema/describe-schema.ts';
import { readStreamFrame } from './schema/stream-schema.ts';
import type { ResultView } from './result-view.ts';

const RUNS = { numRuns: 300 };

/** Anything at all, and JSON values, mixed. */
const junk = fc.oneof(fc.anything(), fc.jsonValue({ maxDepth: 4 }));
/** An object with the protocol's keys, each holding junk: "ill-typed", not merely missing. */
const keyed = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), junk, { maxKeys: keys.length });

const errorLike = keyed(['code', 'message', 'field', 'path', 'detail']).chain((e) =>
  fc.record({ detail: fc.oneof(junk, keyed(['exception', 'message', 'stack'])) }).map((d) => ({ ...e, ...d })),
);
const envelopeLike = fc.record(
  {
    __payload__: junk,
    __message__: junk,
    __intent__: fc.oneof(junk, fc.constant('multi')),
    __errors__: fc.oneof(junk, fc.array(fc.oneof(junk, errorLike), { maxLength: 4 })),
    __extras__: fc.oneof(junk, keyed(['filtered', 'display', 'queries', 'limit', 'offset', 'draw', 'cached', 'notices', 'other'])),
    __system__: fc.oneof(junk, fc.record({ queries: junk, time_ms: junk, sql: fc.oneof(junk, fc.array(fc.oneof(junk, keyed(['sql', 'params', 'time_ms'])))) })),
  },
  { requiredKeys: [] },
);
const flatLike = envelopeLike.map((e) => ({ status: 'OK', data: e.__payload__, errors: e.__errors__, extras: e.__extras__, system_info: e.__system__, intent: e.__intent__, message: e.__message__ }));
const multiLike = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(junk, keyed(['data', 'extras', 'message', 'errors', 'notices', 'intent']))).map((payload) => ({ __intent__: 'multi', __payload__: payload }));

const isCount = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) >= 0);

function checkView(view: ResultView): void {
  for (const { errors, extras, notices, message, intent } of [view, ...view.sections].map((s) => ({ notices: [], extras: null, ...s }))) {
    for (const e of errors) {
      expect(typeof e.code).toBe('string');
      expect(typeof e.message).toBe('string');
      if (e.field !== undefined) expect(typeof e.field).toBe('string');
      if (e.path !== undefined) expect(e.path.every((p) => typeof p === 'string' || typeof p === 'number')).toBe(true);
      if (e.detail) {
        expect(typeof e.detail.exception).toBe('string');
        expect(typeof e.detail.message).toBe('string');
        if (e.detail.stack !== undefined) expect(typeof e.detail.stack).toBe('string');
      }
    }
    if (extras) {
      for (const k of ['filtered', 'display', 'queries', 'limit', 'offset', 'draw'] as const) expect(isCount(extras[k])).toBe(true);
      if (extras.cached !== undefined) expect(typeof extras.cached).toBe('boolean');
    }
    expect(notices.every((n: unknown) => typeof n === 'string')).toBe(true);
    expect(message === null || typeof message === 'string').toBe(true);
    expect(intent === null || typeof intent === 'string').toBe(true);
  }
  if (view.system) {
    expect(isCount(view.system.queries)).toBe(true);
    expect(Number.isFinite(view.system.time_ms)).toBe(true);
    for (const s of view.system.sql ?? []) {
      expect(typeof s.sql).toBe('string');
      expect(Array.isArray(s.params)).toBe(true);
      expect(Number.isFinite(s.time_ms)).toBe(true);
    }
  }
  for (const m of view.misfits) expect(typeof m.sentence).toBe('string');
  // What the worker posts must survive structured cloning.
  expect(() => structuredClone(view)).not.toThrow();
}

describe('the boundary never throws past itself', () => {
  it('envelope, flat and multi answers of any shape', () => {
    fc.assert(
      fc.property(fc.oneof(junk, envelopeLike, flatLike, multiLike), fc.integer({ min: 0, max: 599 }), fc.boolean(), (body, status, onlyData) => {
        // fc.anything() may hold values JSON cannot (undefined, -0); the boundary must not care.
        checkView(normalizeParsed(body, status, { renderOnlyData: onlyData }));
      }),
      RUNS,
    );
  });

  it('any text as a body', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), fc.integer({ min: 0, max: 599 }), (text, status) => checkView(normalizeText(text, status))), RUNS);
  });

  it('describe', () => {
    const fieldLike = keyed(['type', 'required', 'null', 'choices', 'to', 'default', 'unique', 'maxLength', 'min', 'max', 'writeOnly', 'auto', 'protected', 'lookups']);
    const modelLike = fc.oneof(junk, fc.record({ fields: fc.oneof(junk, fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(junk, fieldLike))), intents: junk, relations: junk, search: junk, ordering: junk }, { requiredKeys: [] }));
    const describeLike = fc.record(
      { version: junk, workspace: junk, mode: junk, limits: junk, apps: fc.oneof(junk, fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(junk, fc.record({ models: fc.oneof(junk, fc.dictionary(fc.string({ maxLength: 4 }), modelLike)), controllers: junk, collections: junk }, { requiredKeys: [] })))) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(junk, describeLike), (payload) => {
        const { describe: d, misfits } = readDescribe(payload);
        expect(misfits.every((m) => typeof m.sentence === 'string')).toBe(true);
        if (!d) return;
        expect(typeof d.version).toBe('string');
        for (const app of Object.values(d.apps)) {
          for (const model of Object.values(app.models)) {
            expect(model.intents.every((i) => typeof i === 'string')).toBe(true);
            for (const field of Object.values(model.fields)) {
              expect(typeof field.type).toBe('string');
              expect(Array.isArray(field.lookups)).toBe(true);
              if (field.choices !== undefined) expect(Array.isArray(field.choices)).toBe(true);
            }
          }
          for (const c of Object.values(app.controllers)) expect(Array.isArray(c.intents)).toBe(true);
          for (const c of Object.values(app.collections)) expect(Array.isArray(c.intents)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('stream frames', () => {
    const frameLike = fc.record({ type: fc.constantFrom('subscribed', 'unsubscribed', 'event', 'error', 'pong', 'authenticated', 'x'), id: junk, seq: junk, subscription: junk, event: junk, record: junk, error: junk, user: junk }, { requiredKeys: ['type'] });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), frameLike.map((f) => JSON.stringify(f) ?? ''), fc.nat().map((n) => ({ binaryBytes: n }))), (data) => {
        const frame = readStreamFrame(data);
        expect(typeof frame.type).toBe('string');
        if (frame.type === 'event') {
          expect(typeof frame.subscription).toBe('string');
          expect(Number.isSafeInteger(frame.seq)).toBe(true);
        }
        if (frame.type === 'unreadable') expect(frame.sentence.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('login, the signed-in user and /healthz', () => {
    fc.assert(
      fc.property(fc.oneof(junk, keyed(['token', 'expires_at', 'user']), keyed(['status', 'version']), keyed(['id', 'username', 'roles'])), (payload) => {
        const login = readLogin(payload).value;
        if (login) expect(typeof login.token).toBe('string');
        const user = readUser(payload);
        if (user) expect(typeof user.username).toBe('string');
        const health = readHealth(payload);
        if (health) expect(typeof health.version).toBe('string');
      }),
      RUNS,
    );
  });
});
