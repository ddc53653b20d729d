// An answer refused for its size (413 payload_too_large) or for the answers held for slow clients
// (503 server_busy, Retry-After) must mean that nothing was written: a client told to retry later, or
// that its request was too large, does not expect its create to be in the database, and one that
// retries after Retry-After writes it twice. Found by the independent review of issue 29: a multi-query
// whose reads fit the row count but whose envelope did not was answered 413 after its create (atomic
// or not) had committed, and a create sent while slow readers held limits.heldAnswerBytes was
// answered 503 after it had committed.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stuckReader as openStuckReader } from '../testing/stuck-reader.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

const note = (limits: Record<string, number>) => ({
  name: 'refused-after-write',
  limits,
  apps: {
    memo: {
      models: {
        Note: {
          fields: { body: { type: 'text', null: true }, tag: { type: 'string', null: true } },
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
      },
    },
  },
});

const count = { __meta__: { namespace: 'memo.Note', intent: 'count' } };
const create = (tag: string) => ({ __meta__: { namespace: 'memo.Note', intent: 'create', return: { id: null } }, tag });

describe('an answer too large for limits.maxAnswerBytes', () => {
  const LIMIT = 16 * KiB;
  let t: TestApp;
  let big: number;
  beforeAll(async () => {
    t = await testApp({ workspace: writeWorkspace(note({ maxAnswerBytes: LIMIT, maxValueBytes: 8 * KiB, heldAnswerBytes: 64 * KiB })) });
    big = (await t.post({ ...create('big'), body: 'a'.repeat(8000) })).body.__payload__.id;
  });
  afterAll(() => t.close());

  /** Two reads of the 8,000-byte note: their rows (about 16,050 bytes) fit the limit, the envelope around them does not. */
  const reads = () => ({
    r1: { __meta__: { namespace: 'memo.Note', intent: 'retrieve', filter: { id: big } }, body: null },
    r2: { __meta__: { namespace: 'memo.Note', intent: 'retrieve', filter: { id: big } }, body: null },
  });

  it.each([false, true])('is refused with nothing written, in a multi-query with a create (atomic %s)', async (atomic) => {
    const before = (await t.post(count)).body.__payload__.count;
    const answer = await t.post({ __root_meta__: { atomic }, w: create(`multi ${atomic}`), ...reads() });
    expect(answer.status).toBe(413);
    expect(answer.body.__errors__[0].code).toBe('payload_too_large');
    expect((await t.post(count)).body.__payload__.count).toBe(before);
  });

  it('still answers the same reads without a write, and a multi-query that fits with its create', async () => {
    const refused = await t.post(reads());
    expect(refused.status).toBe(413);
    const before = (await t.post(count)).body.__payload__.count;
    const fits = await t.post({ w: create('fits'), r1: reads().r1 });
    expect(fits.status).toBe(200);
    expect(fits.body.__payload__.w.errors).toBeNull();
    expect(fits.body.__payload__.r1.data[0].body).toHaveLength(8000);
    expect((await t.post(count)).body.__payload__.count).toBe(before + 1);
  });
});

describe('a write while slow readers hold limits.heldAnswerBytes', () => {
  let s: FileServer;
  const sockets: Socket[] = [];
  // Six notes of 1 MB and one that fills the page to 50 bytes under the bound: one reader that does
  // not read holds it (more than the kernel takes of its connection), and leaves no room for any answer.
  const HELD = 6 * MiB;
  const PAGE = JSON.stringify({ __meta__: { namespace: 'memo.Note', intent: 'retrieve', filter: { tag: 'big' } }, body: null });
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(note({ maxValueBytes: MiB, maxAnswerBytes: HELD, heldAnswerBytes: HELD })) });
    const notes = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`n${i}`, { ...create('big'), body: i < 6 ? `${i} ${'x'.repeat(1_000_000)}` : '' }]));
    const made = await s.post(notes);
    expect(Object.values(made.body.__payload__).every((answer: any) => answer.errors === null)).toBe(true);
    const page = await fetch(`${s.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PAGE });
    const fill = HELD - 50 - Buffer.byteLength(await page.text());
    const filled = await s.post({ __meta__: { namespace: 'memo.Note', intent: 'update', uniqueObject: { id: made.body.__payload__.n6.data.id } }, body: 'f'.repeat(fill) });
    expect(filled.status).toBe(200);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await s.close();
  });

  async function stuckReader(): Promise<void> {
    sockets.push(await openStuckReader(s.url, PAGE));
  }

  it('is refused before it runs (503, nothing written) or answered: never refused after its commit', async () => {
    await stuckReader();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = async (): Promise<number> => {
      // Read once the stuck readers are gone: until then a count may be refused too.
      const answer = await s.post(count);
      expect(answer.status).toBe(200);
      return answer.body.__payload__.count as number;
    };
    const single = await s.post(create('single'));
    const multi = await s.post({ m: create('multi') });
    expect(single.status).toBe(503);
    expect(single.body.__errors__[0].code).toBe('server_busy');
    expect(single.headers.get('retry-after')).toBe('1');
    expect(multi.status).toBe(503);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only the seven notes: neither refused create was written.
    expect(await rows()).toBe(7);
    const later = await s.post(create('later'));
    expect(later.status).toBe(200);
    expect(await rows()).toBe(8);
  });
});
