// Issue 29.3b: a read of many large json values costs about the bytes it sends, not what parsing them
// would. Each value is an array of many small arrays (`[[0],[1],…]`), the kind of JSON whose parsed
// objects weigh most per byte of text (some 14 times). Requests that answer just under
// limits.maxAnswerBytes, as an anonymous caller, keep the server's peak resident memory within a
// few answers' worth above where it started. Parsing every stored value, as reads did before, took
// the peak some 60 times the answer above it. The server runs as a child process (`jql-console serve`) so
// that its memory is measured alone: VmHWM in /proc is the peak resident set since it started.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { residentMemory as memory, serve, type ServeProcess } from './server-process.ts';

const MiB = 1024 * 1024;
const MAX_ANSWER = 16 * MiB;
/**
 * What reading such answers may cost above the baseline: each one's rows as read, its text, the bytes
 * sent, garbage of the round before not yet collected. Measured (2026-11-29, a loaded 2-core machine):
 * 161 MiB with the stored text passed through; 961 MiB with every value parsed, as before.
 */
const MAX_GROWTH = 16 * MAX_ANSWER;
const VALUES = 64;
/** Each value's text: 256 KiB of `[n],` pieces, so that 60 of them fill most of the answer. */
const VALUE_TEXT = (() => {
  const pieces: string[] = [];
  let length = 2;
  for (let i = 0; length < 256 * 1024 - 16; i++) {
    const piece = `[${i % 10}]`;
    pieces.push(piece);
    length += piece.length + 1;
  }
  return `[${pieces.join(',')}]`;
})();

const WORKSPACE = {
  name: 'json-memory',
  limits: { maxAnswerBytes: MAX_ANSWER, heldAnswerBytes: 4 * MAX_ANSWER },
  apps: {
    j: {
      models: {
        Doc: {
          fields: { name: { type: 'string' }, data: { type: 'json', null: true } },
          search: [],
          permissions: { retrieve: ['anyone'] },
        },
      },
    },
  },
};

const dataDir = tempDir('jql-json-memory-');
const workspaceFile = writeWorkspace(WORKSPACE);
let server: ServeProcess;

beforeAll(async () => {
  // The first start creates the tables; the values go in while no server runs, then it starts again.
  server = await serve(workspaceFile, dataDir);
  await server.kill();
  const db = openDatabase(join(dataDir, 'jql.sqlite'));
  try {
    const insert = db.prepare('INSERT INTO "j.Doc" (name, data) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < VALUES; i++) insert.run(`doc ${i}`, VALUE_TEXT);
    })();
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

describe('a read of large json values', () => {
  it(`grows the server's peak memory by at most ${MAX_GROWTH / MiB} MiB for an answer of up to ${MAX_ANSWER / MiB} MiB`, { timeout: 300_000 }, async () => {
    const pid = server.child.pid as number;
    // A first small read warms the server up (its plan, its statements), so the baseline is a served one.
    const warm = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'j.Doc', intent: 'count' } }) });
    expect(await warm.json()).toMatchObject({ __payload__: { count: VALUES } });
    const baseline = memory(pid).peak;
    // As many values as fit in the answer, read three times (the second and third by the plan).
    const fitting = Math.floor((MAX_ANSWER - 64 * 1024) / (VALUE_TEXT.length + 64));
    const body = JSON.stringify({ __meta__: { namespace: 'j.Doc', intent: 'retrieve', limit: fitting }, name: null, data: null });
    let sent = 0;
    for (let round = 0; round < 3; round++) {
      const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      sent = Buffer.byteLength(text, 'utf8');
      expect(text).toContain(`"data":${VALUE_TEXT}`);
    }
    expect(sent).toBeGreaterThan(MAX_ANSWER * 0.9);
    // The server still answers: health, and a read past the limit is refused as before.
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const all = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.replace(`"limit":${fitting}`, `"limit":${VALUES}`) });
    expect(all.status).toBe(413);
    const { peak } = memory(pid);
    console.log(`json memory test: answer ${(sent / MiB).toFixed(1)} MiB, peak RSS ${(baseline / MiB).toFixed(0)} -> ${(peak / MiB).toFixed(0)} MiB (growth bound ${MAX_GROWTH / MiB} MiB)`);
    expect(peak - baseline).toBeLessThan(MAX_GROWTH);
  });
});
