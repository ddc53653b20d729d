// Property (issue 29.3b): a json field's value is sent as its stored text, not parsed and written out
// again, and that shortcut is transparent. Random json values (unicode, escapes, lone surrogates,
// nested arrays and objects, keys such as "__proto__" and "10" that JSON orders its own way, numbers
// past 2^53 written as digits in the request) are created on a server with every shortcut and on one
// without any (`shortcuts: false`, which parses every stored value as the plain path always did); then
// reads of them (retrieve, retrieveOne, nested through a reference and a reverse relation, a multi-query,
// the flat shape, the answer cache) must answer the same bytes, the raw response text compared.
//
// Default run: 25 cases of 1 to 4 values each, some 3 s on an idle machine. With the splice writing
// the wrong stored text at a mark (or the marks of two values swapped) it fails on its first case.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const WORKSPACE = {
  name: 'stored-json',
  apps: {
    j: {
      models: {
        Box: {
          fields: { label: { type: 'string' }, data: { type: 'json', null: true }, extra: { type: 'json', null: true } },
          relations: { items: { many: 'j.Item', via: 'box' } },
          permissions: { retrieve: ['anyone'], create: ['anyone'] },
        },
        Item: {
          fields: { box: { type: 'ref', to: 'j.Box', null: true }, data: { type: 'json', null: true } },
          permissions: { retrieve: ['anyone'], create: ['anyone'] },
        },
      },
    },
  },
};

let servers: TestApp[] = [];

beforeAll(async () => {
  const file = writeWorkspace(WORKSPACE);
  servers = [await testApp({ workspace: file, shortcuts: true }), await testApp({ workspace: file, shortcuts: false })];
});

afterAll(async () => {
  for (const server of servers) await server.close();
});

/** The raw answer text of one server. */
async function ask(server: TestApp, body: string, query = ''): Promise<{ status: number; text: string }> {
  const res = await server.app.inject({ method: 'POST', url: `${server.state.basePath}/jql${query}`, headers: { 'content-type': 'application/json' }, payload: body });
  return { status: res.statusCode, text: res.body };
}

/** The same request on both servers: the same status and the same bytes. */
async function same(body: string, query = ''): Promise<{ status: number; text: string }> {
  const [fast, plain] = [await ask(servers[0] as TestApp, body, query), await ask(servers[1] as TestApp, body, query)];
  expect(fast.status, body).toBe(plain.status);
  expect(fast.text, body).toBe(plain.text);
  return fast;
}

// Strings of any UTF-16 units: control characters, quotes, backslashes, lone surrogates, astral characters.
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom('"', '\\', '\u0000\u001f', '\ud800', '\udc00x', '€', '</script>', '\u2028'));
const key = fc.oneof(text, fc.constantFrom('__proto__', '10', '2', 'constructor', ''));
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0.1, 1e21, 1e-7, -0, 2 ** 53 + 1));
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));

/** The request text: a value spliced in as JSON text, and now and then a number JSON cannot hold exactly. */
function withValue(value: unknown, big: boolean): string {
  const valueText = JSON.stringify(value) ?? 'null';
  return big ? `[${valueText}, 12345678901234567890, -98765432109876543210.5e3]` : valueText;
}

/** The `__payload__` member of an answer's text, as sent (it is the first member of the envelope). */
function payloadText(answer: string): string {
  const end = answer.lastIndexOf(',"__message__"');
  expect(answer.startsWith('{"__payload__":') && end > 0, answer).toBe(true);
  return answer.slice('{"__payload__":'.length, end);
}

let run = 0;

describe('a stored json value', () => {
  it('is answered byte for byte as the plain path answers it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ data: jsonValue, extra: jsonValue, big: fc.boolean() }), { minLength: 1, maxLength: 4 }), async (boxes) => {
        run += 1;
        const label = `run ${run}`;
        for (const box of boxes) {
          const created = await same(`{"__meta__":{"namespace":"j.Box","intent":"create"},"label":${JSON.stringify(label)},"data":${withValue(box.data, box.big)},"extra":${withValue(box.extra, false)}}`);
          expect(created.status, created.text).toBe(200);
          const id = JSON.parse(created.text).__payload__.id as number;
          await same(`{"__meta__":{"namespace":"j.Item","intent":"create"},"box":${id},"data":${withValue(box.extra, box.big)}}`);
        }
        const page = `{"__meta__":{"namespace":"j.Box","intent":"retrieve","filter":{"label":${JSON.stringify(label)}}},"label":null,"data":null,"extra":null,"items":{"data":null,"box":{"data":null}}}`;
        const answer = await same(page);
        expect(answer.status).toBe(200);
        // The values read back are the ones written (after JSON's own parse of the request).
        const read = JSON.parse(answer.text).__payload__ as Array<{ data: unknown }>;
        expect(read.map((box) => JSON.stringify(box.data))).toEqual(boxes.map((box) => JSON.stringify(JSON.parse(withValue(box.data, box.big)))));
        await same(page, '?envelope=flat');
        const first = read.length > 0 ? (JSON.parse(answer.text).__payload__[0].id as number) : 0;
        await same(`{"__meta__":{"namespace":"j.Box","intent":"retrieveOne","uniqueObject":{"id":${first}}},"data":null,"items":{"data":null}}`);
        await same(`{"a":${page},"b":{"__meta__":{"namespace":"j.Item","intent":"retrieve","limit":100},"data":null,"box":{"extra":null}}}`);
        // Through the answer cache: the entry kept (the same bytes), then the entry answered, whose
        // payload is the same bytes as the plain server's (only its report of the hit differs).
        const cachedPage = page.replace('"intent":"retrieve"', '"intent":"retrieve","cache":{"enabled":true}');
        await same(cachedPage);
        const hit = await ask(servers[0] as TestApp, cachedPage);
        const plain = await ask(servers[1] as TestApp, cachedPage);
        expect(payloadText(hit.text)).toBe(payloadText(plain.text));
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 120_000);
});
