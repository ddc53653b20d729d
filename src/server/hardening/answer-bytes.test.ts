// Issue 29.3: limits.maxAnswerBytes counts the UTF-8 bytes of the JSON that is sent, escapes included
// (`€` 3 bytes, U+0001 6, `"` 2, a surrogate pair 4, a lone surrogate 6), not characters. The count of
// a row is exact, not an estimate (the property tests below hold it to the byte); through the server an
// answer is 200 exactly when its body weighs at most the limit, and payload_too_large otherwise.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowBytes, rowBytesAtMost } from '../query/answer-budget.ts';
import { jsonNumberBytes, jsonStringBytes } from '../query/json-bytes.ts';
import { buildSelection } from '../query/selection.ts';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import type { ModelDef } from '../workspace/types.ts';

const LIMIT = 16_384;
const WORKSPACE = {
  name: 'bytes',
  apps: {
    bytes: {
      models: {
        Note: {
          fields: { body: { type: 'text', null: true }, tag: { type: 'string', null: true, maxLength: 4 } },
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
      },
    },
  },
  limits: { defaultLimit: 10, maxLimit: 100, maxValueBytes: LIMIT, maxAnswerBytes: LIMIT },
};

const sent = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Strings of every kind JSON writes differently: ASCII, escapes, control characters, 2-, 3- and 4-byte characters, lone surrogates. */
const awkward = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', ' ', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u0001', '\u001f', '\u007f', 'é', '€', '\u{1F600}', '\ud800', '\udfff', '\u2028'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  ),
  maxLength: 60,
});

describe('the count of what a value weighs sent', () => {
  it('is the UTF-8 bytes of JSON.stringify, to the byte, for any string', () => {
    fc.assert(fc.property(awkward, (text) => jsonStringBytes(text) === sent(text)));
    expect([jsonStringBytes('€'), jsonStringBytes('\u0001'), jsonStringBytes('"'), jsonStringBytes('\u{1F600}'), jsonStringBytes('\udc00')]).toEqual([5, 8, 4, 6, 8]);
  });

  it('is exact for any number and any row SQLite gives (text, numbers, null)', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger(), fc.constant(-0)), (n) => jsonNumberBytes(n) === sent(n)));
    const value = fc.oneof(awkward, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
    fc.assert(fc.property(fc.dictionary(awkward, value, { maxKeys: 6 }), (row) => rowBytes(row) === sent(row)));
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE) });
  const made = await t.post({ __meta__: { namespace: 'bytes.Note', intent: 'create', return: { id: null } }, body: '' });
  expect(made.status).toBe(200);
});
afterAll(() => t.close());

/** The raw answer to reading note 1, as sent. */
async function readNote(): Promise<{ status: number; bytes: number; code: string | null }> {
  const res = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'application/json' }, payload: { __meta__: { namespace: 'bytes.Note', intent: 'retrieve', filter: { id: 1 } }, body: null } });
  const body = JSON.parse(res.payload);
  return { status: res.statusCode, bytes: res.rawPayload.length, code: body.__errors__?.[0]?.code ?? null };
}

async function writeNote(body: string): Promise<void> {
  const res = await t.post({ __meta__: { namespace: 'bytes.Note', intent: 'update', uniqueObject: { id: 1 } }, body });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
}

describe('limits.maxAnswerBytes through the server', () => {
  it.each([
    ['€', 3],
    ['\u0001', 6],
    ['"', 2],
    ['\u{1F600}', 4],
    ['é', 2],
  ])('answers a note of %j (%i bytes each sent) with 200 up to the limit, to the byte, and payload_too_large past it', async (unit, each) => {
    await writeNote('');
    const empty = await readNote();
    expect(empty.status).toBe(200);
    // The most characters that fit: the answer grows by `each` bytes a character.
    const most = Math.floor((LIMIT - empty.bytes) / each);
    for (const count of [most - 1, most, most + 1, most + 2]) {
      await writeNote(unit.repeat(count));
      const answer = await readNote();
      if (empty.bytes + each * count <= LIMIT) {
        expect({ count, status: answer.status, bytes: answer.bytes }).toEqual({ count, status: 200, bytes: empty.bytes + each * count });
      } else {
        expect({ count, status: answer.status, code: answer.code }).toEqual({ count, status: 413, code: 'payload_too_large' });
      }
    }
    // Just under the limit passes.
    await writeNote(unit.repeat(most));
    expect((await readNote()).bytes).toBeGreaterThan(LIMIT - each);
  });

  it('measures a stored value as it weighs serialized, so the page-row bound holds for control characters too', async () => {
    // 16,384 bytes of U+0001 would be 98,304 sent: refused on write, as is anything over the limit once escaped.
    const refused = await t.post({ __meta__: { namespace: 'bytes.Note', intent: 'create' }, body: '\u0001'.repeat(LIMIT / 6 + 1) });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.__errors__)).toContain('limits.maxValueBytes');
    const tag = await t.post({ __meta__: { namespace: 'bytes.Note', intent: 'create', return: { id: null } }, body: '\u0001'.repeat(Math.floor(LIMIT / 6) - 1), tag: '\u0001\u0001\u0001\u0001' });
    expect(tag.status).toBe(200);
    // The largest rows the server stores weigh no more than the bound the one-call page read relies on.
    const model = t.state.ws.models.get('bytes.Note') as ModelDef;
    const selection = buildSelection(t.state.ws, model, null, []);
    const bound = rowBytesAtMost(selection.columns, LIMIT);
    const rows = t.state.db.read((statements) => statements.get('SELECT * FROM "bytes.Note"').all() as Array<Record<string, unknown>>);
    for (const row of rows) expect(rowBytes(row)).toBeLessThanOrEqual(bound);
    await t.post({ __meta__: { namespace: 'bytes.Note', intent: 'delete', uniqueObject: { id: tag.body.__payload__.id } } });
  });
});
