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
    expect(view.sections[0]?.errors).toEqual([{ code: 'internal_error', message: 'Unknown error' }]);
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
