/**
 * What the clone stores when a record cannot be copied as it is: references to records not in the
 * copy, a required reference to one, a repeated unique value, a value the local model refuses.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../shared/protocol.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { prepareRows } from './prepare-rows.ts';
import { Redactor } from './redact.ts';
import { planRedaction } from './redaction-plan.ts';

const ws = resolveWorkspace(
  {
    apps: {
      z: {
        models: {
          Shelf: { fields: { label: { type: 'string', unique: true, maxLength: 5 } } },
          Box: {
            fields: {
              shelf: { type: 'ref', to: 'z.Shelf' },
              spare: { type: 'ref', to: 'z.Shelf', null: true },
              size: { type: 'integer', min: 1, max: 9, null: true },
              code: { type: 'string', writeOnly: true, maxLength: 3 },
            },
          },
          Item: { fields: { box: { type: 'ref', to: 'z.Box' }, name: { type: 'string', null: true } } },
        },
      },
    },
  },
  null,
);

const records = (entries: Record<string, JsonObject[]>) => new Map(Object.entries(entries).map(([ns, list]) => [ns, new Map(list.map((r) => [r.id as number, r]))]));
const prepare = (entries: Record<string, JsonObject[]>) => prepareRows(ws, records(entries), planRedaction(ws, []), new Redactor('test'));

describe('prepareRows', () => {
  it('empties references to records not in the copy, and leaves out what requires one, transitively', () => {
    const { rows, report } = prepare({
      'z.Shelf': [{ id: 1, label: 'A' }],
      'z.Box': [
        { id: 10, shelf: 1, spare: 7, size: 3 },
        { id: 11, shelf: 8, spare: null, size: 4 },
      ],
      'z.Item': [
        { id: 100, box: 10, name: 'kept' },
        { id: 101, box: 11, name: 'goes with its box' },
      ],
    });
    expect(rows.map((r) => `${r.model.key}:${r.id}`).sort()).toEqual(['z.Box:10', 'z.Item:100', 'z.Shelf:1']);
    expect(rows.find((r) => r.id === 10)!.data).toMatchObject({ shelf: 1, spare: null, size: 3, code: 'not' });
    expect(report.cutReferences.get('z.Box.spare')).toBe(1);
    expect(report.dropped.map((d) => `${d.namespace}:${d.id}`).sort()).toEqual(['z.Box:11', 'z.Item:101']);
    expect(report.placeholders.get('z.Box.code')).toEqual({ value: '"not"', records: 1 });
    expect(report.emptied.get('z.Box.code')?.reason).toMatch(/writeOnly/);
  });

  it('keeps the first of two records with one unique value, and empties a value the model refuses', () => {
    const { rows, report } = prepare({
      'z.Shelf': [
        { id: 1, label: 'A' },
        { id: 2, label: 'A' },
      ],
      'z.Box': [{ id: 10, shelf: 1, spare: null, size: 42 }],
    });
    expect(rows.filter((r) => r.model.key === 'z.Shelf').map((r) => r.id)).toEqual([1]);
    expect(report.dropped[0]).toMatchObject({ namespace: 'z.Shelf', id: 2 });
    expect(rows.find((r) => r.id === 10)!.data.size).toBeNull();
    expect(report.refused[0]).toMatchObject({ namespace: 'z.Box', id: 10, field: 'size' });
  });
});

describe('Redactor', () => {
  const redactor = new Redactor('test');
  const field = (extra: object) => ({ ...ws.models.get('z.Box')!.fields.get('size')!, ...extra });

  it('keeps the shape of strings and numbers, within choices, min and max', () => {
    expect(redactor.any('Ab-12 ü')).toMatch(/^[A-Z][a-z]-\d\d [a-z]$/);
    expect(redactor.field(field({}), 7)).toBeGreaterThanOrEqual(1);
    expect(redactor.field(field({}), 7)).toBeLessThanOrEqual(9);
    expect(redactor.field(field({ choices: [1, 2, 3] }), 2)).toBeOneOf([1, 2, 3]);
    expect(redactor.field({ ...field({}), type: 'date', min: undefined, max: undefined }, '1990-05-17')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(redactor.any({ a: [1.5, true, null, 'x'] })).toEqual({ a: [expect.any(Number), expect.any(Boolean), null, expect.stringMatching(/^[a-z]$/)] });
  });

  it('gives the same fake for the same input, and another under another key', () => {
    expect(redactor.any('jane@corp.example')).toBe(new Redactor('test').any('jane@corp.example'));
    expect(redactor.any('jane@corp.example')).not.toBe(new Redactor('other').any('jane@corp.example'));
    expect(redactor.any('jane@corp.example')).not.toBe(redactor.any('john@corp.example'));
  });
});
