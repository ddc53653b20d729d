import { describe, expect, it } from 'vitest';
import { normalizeText } from '../response/normalize-envelope.ts';
import { allErrors } from '../response/result-view.ts';
import { errorMarkerSpecs, MAX_ERROR_MARKERS } from './error-markers.ts';

const single = JSON.stringify(
  { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priorty__gte: 3 }, ordering: ['-creted_at'] }, titel: null },
  null,
  2,
);

const at = (text: string, start: number, end: number) => text.slice(start, end);

describe('errorMarkerSpecs', () => {
  it('pins an error on the key its path names, under __meta__ when the path starts at filter', () => {
    const [spec] = errorMarkerSpecs(single, [
      { section: null, error: { code: 'unknown_field', message: 'No field priorty', field: 'priorty', path: ['filter', 'priorty__gte'] } },
    ]);
    expect(at(single, spec!.start, spec!.end)).toBe('"priorty__gte"');
    expect(spec!.exact).toBe(true);
    expect(spec!.message).toBe('No field priorty');
    expect(spec!.code).toBe('unknown_field');
  });

  it('finds a key by its field when the path names the field without the lookup', () => {
    const [spec] = errorMarkerSpecs(single, [
      { section: null, error: { code: 'unknown_field', message: 'x', field: 'priorty', path: ['filter', 'priorty'] } },
    ]);
    expect(at(single, spec!.start, spec!.end)).toBe('"priorty__gte"');
  });

  it('finds data keys and values', () => {
    const [data, ordering] = errorMarkerSpecs(single, [
      { section: null, error: { code: 'unknown_field', message: 'x', field: 'titel' } },
      { section: null, error: { code: 'unknown_field', message: 'x', field: 'creted_at', path: ['ordering', 0] } },
    ]);
    expect(at(single, data!.start, data!.end)).toBe('"titel"');
    expect(at(single, ordering!.start, ordering!.end)).toBe('"ordering"');
  });

  it('looks inside the subquery of a multi-query', () => {
    const multi = JSON.stringify({
      a: { __meta__: { namespace: 'x', intent: 'retrieve', filter: { status: 1 } } },
      b: { __meta__: { namespace: 'y', intent: 'retrieve', filter: { status: 1 } } },
    });
    const [spec] = errorMarkerSpecs(multi, [
      { section: 'b', error: { code: 'unknown_field', message: 'x', field: 'status', path: ['filter', 'status'] } },
    ]);
    expect(spec!.start).toBeGreaterThan(multi.indexOf('"b"'));
    expect(at(multi, spec!.start, spec!.end)).toBe('"status"');
    expect(spec!.message.startsWith('b: ')).toBe(true);
  });

  it('falls back to __meta__ and then to the document start', () => {
    const [meta] = errorMarkerSpecs(single, [{ section: null, error: { code: 'forbidden', message: 'no' } }]);
    expect(at(single, meta!.start, meta!.end)).toBe('"__meta__"');
    expect(meta!.exact).toBe(false);
    const [start] = errorMarkerSpecs('not json', [{ section: null, error: { code: 'invalid_json', message: 'bad' } }]);
    expect(start).toMatchObject({ start: 0, end: 1 });
  });

  it('marks at most MAX_ERROR_MARKERS errors, the first ones, however many the answer holds', () => {
    const errors = Array.from({ length: 50_000 }, (_, i) => ({ section: null, error: { code: 'validation_error' as const, message: `bad ${i}`, field: 'priorty' } }));
    const specs = errorMarkerSpecs(single, errors);
    expect(specs).toHaveLength(MAX_ERROR_MARKERS);
    expect(specs.at(-1)).toMatchObject({ index: MAX_ERROR_MARKERS - 1, message: `bad ${MAX_ERROR_MARKERS - 1}` });
  });
});

describe('errorMarkerSpecs on an answer as the console reads it', () => {
  it('pins an error whose field holds a zero-width space on that key, not on the key it imitates', () => {
    // The query holds both keys; the server names the one with U+200B, and the boundary keeps it.
    const query = JSON.stringify({ __meta__: { namespace: 'a.B', intent: 'create' }, title: 'x', 'ti\u200Btle': 'y' }, null, 2);
    const view = normalizeText(JSON.stringify({ __payload__: null, __errors__: [{ code: 'unknown_field', message: 'No such field', field: 'ti\u200Btle' }] }), 400);
    const [spec] = errorMarkerSpecs(query, allErrors(view));
    expect(at(query, spec!.start, spec!.end)).toBe('"ti\u200Btle"');
  });
});
