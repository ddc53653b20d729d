/**
 * The hand-written endpoint the JQL server is measured against: fastify + better-sqlite3 over the same
 * database file, running the same SQL text the JQL server runs for the two benchmark scenarios, with
 * statements prepared once at start. It prints `listening <url>` when ready (child process of bench).
 *
 *   GET /items?status=open&priority_gte=3&limit=20&offset=500   a filtered, ordered page + total
 *   GET /items/:id                                              one record
 *   POST /items/query {"status", "priority_gte", "limit", "offset"} and POST /items/one {"id"}: the
 *   same two with a JSON body, as a hand-written JSON API would take them (transport like JQL's)
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: handwritten.ts DB_FILE');
const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');

const COLUMNS = 't0."id", t0."title", t0."body", t0."status", t0."priority", t0."owner", t0."created_at"';
const PAGE_SQL = `SELECT ${COLUMNS} FROM "bench.Item" AS t0 WHERE t0."status" = ? AND t0."priority" >= ? ORDER BY t0."priority" ASC, t0."id" ASC LIMIT ? OFFSET ?`;
const COUNT_SQL = 'SELECT count(*) AS n FROM "bench.Item" AS t0 WHERE t0."status" = ? AND t0."priority" >= ?';
const ONE_SQL = `SELECT ${COLUMNS} FROM "bench.Item" AS t0 WHERE t0."id" = ? LIMIT 2`;

const page = db.prepare(PAGE_SQL);
const count = db.prepare(COUNT_SQL);
const one = db.prepare(ONE_SQL);

const app = Fastify({ logger: false });
app.get('/sql', async () => ({ page: PAGE_SQL, count: COUNT_SQL, one: ONE_SQL }));
app.get('/items', async (request, reply) => {
  const q = request.query as Record<string, string | undefined>;
  const limit = Number(q.limit ?? 20);
  const offset = Number(q.offset ?? 0);
  const priority = Number(q.priority_gte ?? 0);
  if (!q.status || !Number.isInteger(limit) || !Number.isInteger(offset) || !Number.isInteger(priority)) return reply.code(400).send({ error: 'bad query' });
  const rows = page.all(q.status, priority, limit, offset);
  // Like the JQL server: a short page already tells the total.
  const total = rows.length < limit && (rows.length > 0 || offset === 0) ? offset + rows.length : (count.get(q.status, priority) as { n: number }).n;
  return { rows, total };
});
app.get('/items/:id', async (request, reply) => {
  const id = Number((request.params as { id: string }).id);
  const row = Number.isSafeInteger(id) ? one.get(id) : undefined;
  if (!row) return reply.code(404).send({ error: 'not found' });
  return row;
});
app.post('/items/query', async (request, reply) => {
  const q = request.body as { status?: unknown; priority_gte?: unknown; limit?: unknown; offset?: unknown };
  const { status, priority_gte: priority, limit = 20, offset = 0 } = q;
  if (typeof status !== 'string' || !Number.isInteger(priority) || !Number.isInteger(limit) || !Number.isInteger(offset)) return reply.code(400).send({ error: 'bad query' });
  const rows = page.all(status, priority, limit, offset);
  const total = rows.length < (limit as number) && (rows.length > 0 || offset === 0) ? (offset as number) + rows.length : (count.get(status, priority) as { n: number }).n;
  return { rows, total };
});
app.post('/items/one', async (request, reply) => {
  const id = (request.body as { id?: unknown }).id;
  const row = Number.isSafeInteger(id) ? one.get(id) : undefined;
  if (!row) return reply.code(404).send({ error: 'not found' });
  return row;
});
app.addHook('onClose', () => db.close());

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${address}`);
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
