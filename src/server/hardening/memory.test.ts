// Issue 15.3: the worst request one can build (a multi-query at limits.maxQueriesPerRequest, each
// subquery reading records of 1 MiB values with nested relations, one of them 50,000 records under a
// single parent) keeps the server's peak resident memory under MAX_PEAK_RSS. The server runs as a
// child process (`jql-console serve`) so its memory is measured alone: VmHWM in /proc is the peak
// resident set since it started. Before the bounds, 140 such subqueries ran the heap out.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { runs } from './harness.ts';
import { residentMemory as memory, serve, type ServeProcess } from './server-process.ts';

const MiB = 1024 * 1024;
/** The stated bound: the default limits keep one request to about 64 MiB of answer (docs/protocol.md "Errors"). */
const MAX_PEAK_RSS = 640 * MiB;
const BIG_BOOKS = 80;
const CROWD = 50_000;

const WORKSPACE = {
  name: 'memory',
  apps: {
    lib: {
      models: {
        Author: {
          fields: { name: { type: 'string', required: true } },
          relations: { books: { many: 'lib.Book', via: 'author' } },
          permissions: { retrieve: ['anyone'] },
        },
        Book: {
          fields: {
            title: { type: 'string', required: true },
            body: { type: 'text', null: true },
            meta: { type: 'json', null: true },
            author: { type: 'ref', to: 'lib.Author', null: true },
          },
          // No search index: filling one with 50,000 titles and 80 MiB of text would take seconds.
          search: [],
          permissions: { retrieve: ['anyone'] },
        },
      },
    },
  },
};

const dataDir = tempDir('jql-memory-');
const workspaceFile = writeWorkspace(WORKSPACE);
let server: ServeProcess;

async function post(body: unknown): Promise<{ status: number; bytes: number; body: any }> {
  const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, bytes: text.length, body: JSON.parse(text) };
}

beforeAll(async () => {
  // The first start creates the tables; the data goes in while no server runs, then it starts again.
  server = await serve(workspaceFile, dataDir);
  await server.kill();
  const db = openDatabase(join(dataDir, 'jql.sqlite'));
  try {
    const seed = db.transaction(() => {
      const author = db.prepare('INSERT INTO "lib.Author" (name) VALUES (?)');
      const book = db.prepare('INSERT INTO "lib.Book" (title, body, meta, author) VALUES (?, ?, ?, ?)');
      const crowd = Number(author.run('Crowd').lastInsertRowid);
      for (let i = 0; i < CROWD; i++) book.run(`crowd ${i}`, null, null, crowd);
      // Values at limits.maxValueBytes (1 MiB), in a text and a json field.
      const heavy = Number(author.run('Heavy').lastInsertRowid);
      const text = 'x'.repeat(MiB - 64);
      for (let i = 0; i < BIG_BOOKS; i++) book.run(`big ${i}`, `${i} ${text}`, i % 2 === 0 ? JSON.stringify({ notes: text }) : null, i < BIG_BOOKS / 2 ? heavy : crowd);
    });
    seed();
  } finally {
    db.close();
  }
  server = await serve(workspaceFile, dataDir);
}, 120_000);

afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(join(workspaceFile, '..'), { recursive: true, force: true });
});

describe('memory under the worst request', () => {
  it(`keeps peak RSS under ${MAX_PEAK_RSS / MiB} MiB and answers every request with a bounded answer`, { timeout: 300_000 }, async () => {
    const pid = server.child.pid as number;
    const baseline = memory(pid).now;
    const heavyBooks = { __meta__: { namespace: 'lib.Book', intent: 'retrieve', limit: 1000, filter: { title__startswith: 'big' } }, title: null, body: null, meta: null, author: { name: null, books: { title: null, body: null } } };
    const crowdAuthors = { __meta__: { namespace: 'lib.Author', intent: 'retrieve', limit: 1000 }, name: null, books: { title: null, body: null, author: { books: { title: null, body: null } } } };
    const worst = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`q${i}`, i % 2 === 0 ? heavyBooks : crowdAuthors]));
    for (let round = 0; round < runs(2, 10); round++) {
      const multi = await post(worst);
      expect(multi.status).toBe(200);
      // Only what fits in one answer was kept; every other subquery was refused with payload_too_large.
      expect(multi.bytes).toBeLessThan(70 * MiB);
      const codes = Object.values(multi.body.__payload__).map((r: any) => r.errors?.[0]?.code ?? 'ok');
      expect(codes).toContain('payload_too_large');
      const single = await post(heavyBooks);
      expect(single.status).toBe(413);
      expect(single.body.__errors__[0].code).toBe('payload_too_large');
      // One author with 50,000 books under limit 1: the first 100 of them, and a notice.
      const crowd = await post({ __meta__: { namespace: 'lib.Author', intent: 'retrieve', limit: 1, filter: { name: 'Crowd' } }, books: { title: null } });
      expect(crowd.body.__payload__[0].books).toHaveLength(100);
      expect(crowd.body.__extras__.notices[0]).toMatch(/limits\.maxNested/);
    }
    // Still serving small reads right away.
    const started = performance.now();
    const small = await post({ __meta__: { namespace: 'lib.Author', intent: 'count' } });
    expect(small.body.__payload__).toEqual({ count: 2 });
    expect(performance.now() - started).toBeLessThan(2000);
    const { peak } = memory(pid);
    console.log(`memory test: baseline RSS ${(baseline / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB (bound ${MAX_PEAK_RSS / MiB} MiB)`);
    expect(peak).toBeLessThan(MAX_PEAK_RSS);
  });
});
