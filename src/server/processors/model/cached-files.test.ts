// Where a cached answer's protected file values are: taken from the selection at every level
// (references, reverse relations), never from what a value looks like.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../shared/protocol.ts';
import type { RequestContext } from '../../context.ts';
import { buildSelection } from '../../query/selection.ts';
import { resolveWorkspace } from '../../workspace/resolve.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { protectedFileSlots, signFilesAfresh } from './cached-files.ts';

const ws = resolveWorkspace(
  {
    apps: {
      a: {
        models: {
          Box: { fields: { scan: { type: 'file', protected: true, null: true }, note: { type: 'json', null: true } }, relations: { parts: { many: 'a.Part', via: 'box' } } },
          Part: { fields: { box: { type: 'ref', to: 'a.Box', null: true }, photo: { type: 'file', protected: true, null: true }, plain: { type: 'file', null: true } } },
        },
      },
    },
  },
  null,
);

const file = (id: string, signed = true) => ({ name: 'f', size: 1, content_type: 'x/y', sha256: 'h', url: `/base/jql/files/${id}${signed ? '?expires=1&signature=old' : ''}` });

describe('protected file slots', () => {
  it('finds protected files at every level and re-signs only them', () => {
    const part = ws.models.get('a.Part') as ModelDef;
    const selection = buildSelection(ws, part, { photo: null, plain: null, box: { scan: null, note: null, parts: { photo: null } } }, []);
    const records: JsonObject[] = [
      {
        id: 1,
        photo: file('p1'),
        plain: file('x1', false),
        box: { id: 9, scan: file('s9'), note: { looks: file('forged') }, parts: [{ id: 1, photo: null }, { id: 2, photo: file('p2') }] },
      },
      { id: 3, photo: null, plain: null, box: null },
    ];
    const slots = protectedFileSlots(selection, records);
    expect(slots).toEqual([
      { path: [0, 'photo'], id: 'p1' },
      { path: [0, 'box', 'scan'], id: 's9' },
      { path: [0, 'box', 'parts', 1, 'photo'], id: 'p2' },
    ]);
    const ctx = { state: { files: { signedUrl: (id: string) => `/base/jql/files/${id}?fresh` } } } as unknown as RequestContext;
    signFilesAfresh(ctx, records, slots);
    const [first] = records as any[];
    expect([first.photo.url, first.box.scan.url, first.box.parts[1].photo.url]).toEqual(['/base/jql/files/p1?fresh', '/base/jql/files/s9?fresh', '/base/jql/files/p2?fresh']);
    expect(first.plain.url).toBe('/base/jql/files/x1');
    expect(first.box.note.looks.url).toBe('/base/jql/files/forged?expires=1&signature=old');
  });
});
