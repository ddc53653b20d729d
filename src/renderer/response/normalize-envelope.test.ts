import { describe, expect, it } from 'vitest';
import { allErrors } from './result-view.ts';
import { detectShape, normalizeParsed, normalizeText } from './normalize-envelope.ts';

const records = [
  { id: 1, title: 'A' },
  { id: 2, title: 'B' },
];

describe('normalizeParsed', () => {
  it('reads the standard envelope', () => {
    const view = normalizeParsed(
      {
        __payload__: records,
        __message__: null,
        __extras__: { filtered: 12, display: 2, queries: 2, notices: ['limit clamped to 1000'] },
        __errors__: null,
        __system__: { queries: 2, time_ms: 1.5, sql: [{ sql: 'select 1', params: [], time_ms: 0.1 }] },
        __intent__: 'retrieve',
      },
      200,
    );
    expect(view.shape).toBe('envelope');
    expect(view.failed).toBe(false);
    expect(view.isMulti).toBe(false);
    expect(view.sections).toHaveLength(1);
    expect(view.sections[0]?.payload).toEqual(records);
    expect(view.sections[0]?.extras?.filtered).toBe(12);
    expect(view.sections[0]?.notices).toEqual(['limit clamped to 1000']);
    expect(view.system?.sql).toHaveLength(1);
    expect(view.intent).toBe('retrieve');
  });

  it('reads the flat shape into the same view as the envelope', () => {
    const envelope = normalizeParsed(
      { __payload__: records, __message__: 'hi', __extras__: { filtered: 2 }, __errors__: null, __system__: null, __intent__: 'retrieve' },
      200,
    );
    const flat = normalizeParsed(
      { status: 'OK', data: records, errors: null, il8n: 'en', extras: { filtered: 2 }, system_info: null, intent: 'retrieve', message: 'hi' },
      200,
    );
    expect({ ...flat, shape: 'envelope' }).toEqual(envelope);
  });

  it('treats a render only:data body as the payload', () => {
    const view = normalizeParsed(records, 200, { renderOnlyData: true });
    expect(view.shape).toBe('data-only');
    expect(view.sections[0]?.payload).toEqual(records);
    // Even a record that happens to look like an envelope stays data when only:data was asked for.
    const odd = normalizeParsed({ status: 'OK', data: 1 }, 200, { renderOnlyData: true });
    expect(odd.shape).toBe('data-only');
  });

  it('keeps the envelope of an only:data error', () => {
    const view = normalizeParsed(
      { __payload__: null, __errors__: [{ code: 'unknown_field', message: 'No field priorty', field: 'priorty', path: ['filter', 'priorty'] }], __intent__: 'retrieve' },
      400,
      { renderOnlyData: true },
    );
    expect(view.shape).toBe('envelope');
    expect(view.failed).toBe(true);
    expect(allErrors(view)).toEqual([
      { section: null, error: { code: 'unknown_field', message: 'No field priorty', field: 'priorty', path: ['filter', 'priorty'] } },
    ]);
  });

  it('splits a multi-query into one section per key, in order', () => {
    const view = normalizeParsed(
      {
        __payload__: {
          open: { data: records, extras: { filtered: 2, display: 2 }, message: null, errors: null, notices: null, intent: 'retrieve' },
          bad: { data: null, extras: null, message: null, errors: [{ code: 'unknown_namespace', message: 'no' }], notices: ['n1'], intent: 'retrieve' },
        },
        __intent__: 'multi',
        __errors__: null,
        __extras__: null,
        __system__: null,
        __message__: null,
      },
      200,
    );
    expect(view.isMulti).toBe(true);
    expect(view.failed).toBe(false);
    expect(view.sections.map((s) => s.name)).toEqual(['open', 'bad']);
    expect(view.sections[1]?.errors[0]?.code).toBe('unknown_namespace');
    expect(view.sections[1]?.notices).toEqual(['n1']);
    expect(allErrors(view)).toEqual([{ section: 'bad', error: { code: 'unknown_namespace', message: 'no' } }]);
  });

  it('reads a flat multi-query', () => {
    const view = normalizeParsed(
      { status: 'OK', intent: 'multi', data: { a: { data: [], errors: null, extras: null, message: null, notices: null, intent: 'count' } } },
      200,
    );
    expect(view.shape).toBe('flat');
    expect(view.isMulti).toBe(true);
    expect(view.sections[0]?.name).toBe('a');
  });

  it('is lenient with ill-typed keys', () => {
    const view = normalizeParsed({ __payload__: 3, __errors__: [{ nonsense: true }, 'x'], __extras__: 'x', __system__: [] }, 500);
    expect(view.failed).toBe(true);
    expect(view.sections[0]?.extras).toBeNull();
    expect(view.system).toBeNull();
    expect(view.sections[0]?.errors).toEqual([{ code: 'internal_error', message: '(the server gave no message)' }]);
    expect(view.misfits.map((m) => m.sentence)).toEqual([
      'The server sent `__system__` as a list, not an object {queries, time_ms, sql}.',
      'The server sent `__extras__` as the text "x", not an object.',
      'The server sent `__errors__[1]` as the text "x", not an error {code, message}.',
    ]);
  });
  it('keeps an error whose detail parts are objects, naming each (issue 22.1)', () => {
    const detail = { exception: { name: 'Error' }, message: { a: 1 }, stack: { frames: [1, 2] } };
    const view = normalizeParsed({ __payload__: null, __errors__: [{ code: 'internal_error', message: 'Boom', detail }], __intent__: 'x' }, 500);
    const error = view.sections[0]!.errors[0]!;
    expect(error.message).toBe('Boom');
    expect(typeof error.detail?.exception).toBe('string');
    expect(typeof error.detail?.message).toBe('string');
    expect(error.detail?.stack).toBeUndefined();
    expect(view.misfits.map((m) => m.sentence)).toEqual([
      'The server sent `__errors__[0].detail.exception` as an object, not text.',
      'The server sent `__errors__[0].detail.message` as an object, not text.',
      'The server sent `__errors__[0].detail.stack` as an object, not text.',
    ]);
    expect(view.misfits[0]!.raw).toEqual({ name: 'Error' });
  });
  it('keeps only the SQL entries that are {sql, params} (issue 22.3)', () => {
    const view = normalizeParsed(
      { __payload__: [], __system__: { queries: 'two', time_ms: {}, sql: [{ sql: { evil: true }, params: 'x' }, 5, null, { sql: 'select 1', params: [1], time_ms: 0.5 }] }, __intent__: 'x' },
      200,
    );
    expect(view.system).toEqual({ queries: 0, time_ms: 0, sql: [{ sql: 'select 1', params: [1], time_ms: 0.5 }] });
    expect(view.misfits.map((m) => m.where)).toEqual(['__system__.queries', '__system__.time_ms', '__system__.sql[0]', '__system__.sql[1]', '__system__.sql[2]']);
  });
  it('does not show counts that contradict the rows (issue 22.5)', () => {
    const view = normalizeParsed({ __payload__: [{ id: 1 }], __extras__: { filtered: -3, display: 5_000_000, limit: -1, offset: 1e308, queries: 2 }, __intent__: 'retrieve' }, 200);
    expect(view.sections[0]!.extras).toEqual({ queries: 2 });
    const sentences = view.misfits.map((m) => m.sentence).join('\n');
    expect(sentences).toContain('`__extras__.filtered` as -3, not a count');
    expect(sentences).toContain('`__extras__.limit` as -1');
    expect(sentences).toContain('`__extras__.offset` as 1e+308');
    expect(sentences).toContain('The server said it shows 5,000,000 rows (`__extras__.display`) but sent 1');
    const filtered = normalizeParsed({ __payload__: [{ id: 1 }, { id: 2 }], __extras__: { filtered: 1, display: 2 }, __intent__: 'retrieve' }, 200);
    expect(filtered.sections[0]!.extras).toEqual({ display: 2 });
  });
  it('cleans server words: no bidi or control characters, cut to a length (issue 22.4)', () => {
    const view = normalizeParsed({ __payload__: [], __message__: `\u001b[32mSigned in\u202E as admin${'m'.repeat(5000)}`, __intent__: 're\u202Etrieve', __extras__: { notices: ['\u202Egnp.exe', 7] } }, 200);
    expect(view.message).toContain('[32mSigned in as admin');
    expect(view.message).not.toMatch(/[\u001b\u202E]/);
    expect(view.message!.length).toBeLessThanOrEqual(2000);
    expect(view.intent).toBe('retrieve');
    expect(view.sections[0]!.notices).toEqual(['gnp.exe']);
  });
  it('leaves out a payload nested too deeply, keeping the rest (issue 22.13)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const view = normalizeParsed({ __payload__: deep, __errors__: null, __intent__: 'retrieve' }, 200);
    expect(view.tooDeep).toBe(true);
    expect(view.sections[0]!.payload).toBeNull();
    expect(view.intent).toBe('retrieve');
    expect(view.misfits[0]!.sentence).toContain('nested more than 256 levels deep');
    // The view itself can be cloned (the worker posts it) and stringified.
    expect(() => structuredClone(view)).not.toThrow();
    const shallowEnough = normalizeParsed({ __payload__: JSON.parse('['.repeat(200) + ']'.repeat(200)), __intent__: 'x' }, 200);
    expect(shallowEnough.tooDeep).toBe(false);
  });
});

describe('detectShape', () => {
  it('tells the shapes apart', () => {
    expect(detectShape({ __payload__: [] }, 200)).toBe('envelope');
    expect(detectShape({ status: 'ERROR', data: null }, 400)).toBe('flat');
    expect(detectShape([1, 2], 200)).toBe('data-only');
    expect(detectShape({ id: 1 }, 200)).toBe('data-only');
  });
});

describe('normalizeText', () => {
  it('reports a body that is not JSON', () => {
    const view = normalizeText('<html>Bad gateway</html>', 502);
    expect(view.shape).toBe('not-json');
    expect(view.failed).toBe(true);
    expect(view.parseError).toMatch(/not JSON/);
    expect(normalizeText('  ', 204).parseError).toMatch(/empty/);
  });
});
