/**
 * Retrieve throughput: the JQL server against the hand-written fastify + better-sqlite3 endpoint
 * (same database file, same SQL, checked) and against json-server (same rows, from db.json), in two
 * scenarios: a filtered, ordered page with an offset, and one record by id. JQL and the hand-written
 * endpoint alternate round by round so that both see the same machine; the medians are compared.
 */
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { load, median, freePort, pinServers, startJqlCommand, startNode, waitForHttp, type Child, type LoadResult } from './load.ts';
import { table, type Section } from './report.ts';
import { requestFor, type ScenarioName, type Target } from './scenarios.ts';
import type { BenchData } from './data.ts';
import { summarize } from './profile-summary.ts';

export interface RetrieveOptions {
  durationS: number;
  rounds: number;
  connections: number;
  profile: boolean;
}

const SCENARIOS: Array<{ name: ScenarioName; label: string }> = [
  { name: 'page', label: 'filtered, ordered page (status = ?, priority >= 3, order by priority, 20 rows at offset 0-999)' },
  { name: 'one', label: 'one record by id (random id of 100,000)' },
];

/** An admin of the benchmark's server: in production only an admin sees the SQL a query ran (docs/protocol.md "Diagnostics"). */
const BENCH_ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };

export function startJql(data: BenchData, nodeArgs: string[] = []): Promise<Child> {
  return startJqlCommand(['serve', '--workspace', data.workspace, '--data', data.dataDir, '--port', '0', '--production'], /listening on (http\S+)/, {
    nodeArgs,
    env: { JQL_ADMIN: `${BENCH_ADMIN.username}:${BENCH_ADMIN.password}` },
  });
}

async function startJsonServer(data: BenchData): Promise<Child> {
  const port = await freePort();
  const child = await startNode(['node_modules/json-server/lib/cli/bin.js', data.jsonDb, '--port', String(port), '--host', '127.0.0.1', '--quiet', '--read-only'], null);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/items/1`, 120_000);
  return { ...child, url };
}

async function post(url: string, body: unknown, query = '', token?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(`${url}/jql${query}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return res.json();
}

/** The hand-written endpoint must run exactly the SQL the JQL server runs, and all three answer the same rows. */
async function checkSameWork(jql: string, hand: string, json: string | null): Promise<string[]> {
  const notes: string[] = [];
  const page = { __meta__: { namespace: 'bench.Item', intent: 'retrieve', filter: { status: 'open', priority__gte: 3 }, ordering: ['priority'], limit: 20, offset: 500 } };
  const login = await post(jql, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, ...BENCH_ADMIN });
  const admin = login.__payload__?.token as string | undefined;
  if (!admin) throw new Error(`The benchmark's admin could not sign in: ${JSON.stringify(login.__errors__)}`);
  const jqlPage = await post(jql, page, '?query_info_level=2', admin);
  const jqlOne = await post(jql, { __meta__: { namespace: 'bench.Item', intent: 'retrieveOne', uniqueObject: { id: 4242 } } }, '?query_info_level=2', admin);
  const sql = (await (await fetch(`${hand}/sql`)).json()) as { page: string; count: string; one: string };
  const jqlSql = [...jqlPage.__system__.sql, ...jqlOne.__system__.sql].map((s: { sql: string }) => s.sql);
  if (!isDeepStrictEqual(jqlSql, [sql.page, sql.count, sql.one])) throw new Error(`The hand-written SQL differs from the JQL server's:\n${jqlSql.join('\n')}`);
  notes.push('Same SQL checked: the JQL server\'s `query_info_level=2` statements (asked as an admin: in production only an admin sees them) equal the hand-written endpoint\'s text.');
  const handPage = (await (await fetch(`${hand}/items?status=open&priority_gte=3&limit=20&offset=500`)).json()) as { rows: unknown[]; total: number };
  if (!isDeepStrictEqual(jqlPage.__payload__, handPage.rows) || jqlPage.__extras__.filtered !== handPage.total) throw new Error('JQL and the hand-written endpoint answer different rows');
  const handOne = await (await fetch(`${hand}/items/4242`)).json();
  if (!isDeepStrictEqual(jqlOne.__payload__, handOne)) throw new Error('JQL and the hand-written endpoint answer a different record');
  const postJson = (path: string, body: unknown) => fetch(`${hand}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  if (!isDeepStrictEqual(await postJson('/items/query', { status: 'open', priority_gte: 3, limit: 20, offset: 500 }), handPage)) throw new Error('the POST page differs');
  if (!isDeepStrictEqual(await postJson('/items/one', { id: 4242 }), handOne)) throw new Error('the POST record differs');
  if (json) {
    const jsonPage = (await (await fetch(`${json}/items?status=open&priority_gte=3&_sort=priority,id&_order=asc,asc&_start=500&_limit=20`)).json()) as unknown[];
    if (!isDeepStrictEqual(jsonPage, handPage.rows)) throw new Error('json-server answers different rows for the page');
    const jsonOne = await (await fetch(`${json}/items/4242`)).json();
    if (!isDeepStrictEqual(jsonOne, handOne)) throw new Error('json-server answers a different record');
  }
  notes.push('Same answers checked: the page at offset 500 and record 4242 are equal across the servers.');
  return notes;
}

async function measure(child: Child, target: Target, scenario: ScenarioName, data: BenchData, options: RetrieveOptions, rate?: number): Promise<LoadResult> {
  const request = requestFor(target, scenario, data.items);
  await load({ url: child.url, request, durationS: 1, connections: options.connections, rate });
  const result = await load({ url: child.url, request, durationS: options.durationS, connections: options.connections, pid: child.process.pid, rate });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${target} ${scenario}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result;
}

/**
 * Where the time of `one` goes: what profiling showed (2026-11-25), kept with the figures. Measure it
 * again with `--profile` (V8), the server's CPU at a fixed rate, or a loop of in-process runRequest calls.
 */
const WHERE_THE_TIME_GOES = `### Where the time goes (\`one\`)

Since issue 14, a read whose shape was answered before runs its cached plan (src/server/query/plan-cache.ts):
no parsing of \`__meta__\`, no resolving of paths, no compiling; the caller's grants on every model the
query touches are worked out again and compared, and the request's values are bound through the same
checks the compiler uses. In process, \`runRequest\` for a read by id went from 5.5 to about 3.7-4.1 µs
of CPU, of which the SQLite step is about 2 µs; what is left of the pipeline is the shape's key and its
lookup (about 0.5 µs) and the envelope.

Since then (2026-11-25, second pass): an anonymous read that a plan answers goes from the body
parser to the reply without a promise (\`RequestRun.planned\` in src/server/dispatch/run-request.ts; the
POST route is not an async handler); the global onRequest hooks (WebSocket upgrade check, Host guard,
stale local-admin cookie) are fastify callback hooks instead of async ones; the Host guard compares
the header with the last one it accepted instead of parsing it again; the plan cache is asked once.
Every check still runs on every request; a request that presents a credential, a new shape or a write
goes the async way as before. \`npm run bench -- --only=retrieve\` on the same machine (two runs, not
side by side): \`one\` went from 55% / 62% of the hand-written GET / POST to 67% / 76% (the GET's CPU
per request as a share of JQL's at the same load 54% -> 65%; now JQL 30.3 µs, GET 19.6, POST 23.2),
and \`page\` from 81% to 92% of the GET. Side by side at a fixed 8,000 requests/s (server CPU from
\`/proc\`, 8 alternating rounds), the last step alone took 30.8 to 28.1 µs per request (A/A control
of the harness: 1.02).

Where the rest went after the second pass. Server CPU per request at a fixed 8,000 requests/s, quiet machine: JQL about
28 µs, hand-written POST about 25, hand-written GET about 21 (user time 16; system time, the loopback
\`writev\` of the answer and the reads, is about 5-6 µs for all three): the gap is JavaScript, about
3 µs over the POST. In process, \`runRequest\` plus the answer's JSON.stringify takes about 5 µs, half
of it the SQLite read (2.6 µs, as in the hand-written endpoint); the shape key about 0.3 µs, the plan
cache's LRU lookup, the grants check, values binding and request context about 1 µs. The rest is the
HTTP side: the JSON body's depth scan, the cookie and credential reads, and a larger answer to
serialize and send (548 bytes against 426: the envelope).

Third pass (2026-11-25, later). Each step measured side by side at a fixed 8,000 requests/s, the two
JQL servers' data directories swapped between runs:
- The read connection maps the database file (\`PRAGMA mmap_size\`, src/server/db/connection.ts): a read
  by a random id no longer pays a \`pread\` and a copy into SQLite's page cache for each page it misses.
  About 2.5 µs of CPU per request (30.4 to 27.7, 29.8 to 27.3). This is SQLite's setting, not JQL's
  pipeline: the hand-written endpoint keeps better-sqlite3's defaults, as a hand-written endpoint would.
- @fastify/websocket was registered at the root, and its onRequest and onResponse hooks ran for every
  POST /jql; it now lives in the stream route's own plugin. 30.9 to 27.2 and 32.8 to 27.5 µs.
- Smaller: the JSON depth check counts brackets with indexOf before it scans (0.24 to 0.07 µs a body),
  the authentication class is looked for only in keys of its length, the statement cache remembers the
  statement asked for last, and the clock is read only when diagnostics are asked for.
- The servers are pinned to one core and autocannon to the other (\`taskset\`). Unpinned, one JQL process
  could run about 10% slower than another of the same code for its whole life.

V8's memory reducer. Between its rounds each server sits idle while the others are measured. After a
few idle seconds V8 shrank the JQL server's young generation (in one trace a scavenge freed 13 MB
before and 3.5 MB after) and, for a workload where almost nothing survives a scavenge, grew it back
only over minutes: the next rounds of \`one\` ran 5.6 times as many scavenges and answered about 20%
fewer requests per second (43.9k to 35.5k, then 38.7k). The page scenario, with its rounds at a fixed
low rate, runs before \`one\` and brought that state on: with it this run measured 73% / 82% of the
GET / POST, a run of \`one\` alone 88% / 98%. The \`jql-console\` command now starts Node with
\`--no-memory-reducer\` (its \`#!\` line, and \`npm run serve\`; the benchmark starts the server with the
same flags): the heap stays at the size the last burst needed, about 25 MB more resident memory while
idle. Setting the flag from inside the process (\`v8.setFlagsFromString\`) does not help.

Fourth pass (2026-11-25, evening): the filtered page, at its goal's edge (89-90% of the GET in the
last full runs, 91-93% before the memory map). Each tried side by side (two JQL servers, data
directories swapped, pinned, CPU per request at a fixed rate):
- The read connection's memory map against a 64 MiB page cache and no map: the page went from 88% to
  92% of the GET, and the read by id from 87% to 82% (a full \`--only=retrieve\` run with the cache:
  page 91%, read by id 80%, that goal's edge instead). Alone in one process, without HTTP, the three
  (SQLite's default, the map, the cache) read the page and its count in the same time, with or
  without frames in the WAL, and the map and the cache read by id alike (2.0 µs, the default 2.9).
  So the map stays: it also keeps its pages across commits, which empty a reader's page cache.
- A young generation of 64 MiB (\`--max-semi-space-size\`): 2% less CPU on the page, none on the read
  by id; not worth its resident memory.
- The page's LIMIT written into the text instead of bound: no difference (it did matter for the event
  log's read of a range of rowids: 9 µs against 1.7 µs, now written in; src/server/db/limit-literal.ts).
What was left between the page and the GET was about 50 µs of the 500 each request costs, 400 of
which is SQLite in both. The largest measured part: the JQL server read the page's rows one by one so
that \`limits.maxAnswerBytes\` can stop a read before it holds too much
(src/server/query/answer-budget.ts), and better-sqlite3's \`iterate()\` costs about 0.35 µs a row more
than \`all()\`: 7 µs for 20 rows.

Fifth pass (2026-11-25, night): a page whose rows cannot pass what is left of the answer budget is read
with \`all()\` and counted after. What a row can weigh comes from the workspace's limits and the
selected fields' types (\`rowBytesAtMost\`: \`maxValueBytes\` for a string, text or json value, less
for a string with choices, a fixed form for dates, 8 for numbers): for this model's full selection,
2 MiB and a little, so a page of up to 31 rows is read at once within the 64 MiB budget. A larger page,
a nested level or a budget partly spent is still read row by row. In one process, runRequest for the
page with its answer serialized, side by side: 441 to 430 µs of CPU. A \`--only=retrieve\` run then:
the page at 93% of the GET (CPU per request 488 against 456 µs, 94%), read by id unchanged (83% / 93%).

What is left of the page's gap, measured in one process: the read connection's memory map makes the
count about 4 µs slower than SQLite's default page cache (it pays for the read by id, above), and the
JQL pipeline (body shape, plan lookup and binding, envelope) about 10 µs; over HTTP, reading a JSON
body instead of a query string costs the hand-written POST about 10 µs more than its GET, and JQL
the same. Next steps: a shape key that needs no new string per request, and a small cache of verified
Bearer tokens (a signed-in read still takes the async path).`;

export async function retrieveBench(data: BenchData, options: RetrieveOptions): Promise<Section> {
  const profileDir = join(data.dir, 'profiles');
  const jql = await startJql(data, options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  const hand = await startNode(['bench/servers/handwritten.ts', join(data.dataDir, 'jql.sqlite')], /listening (http\S+)/);
  let json: Child | null = null;
  const rows: Array<Array<string | number>> = [];
  const fixedRows: Array<Array<string | number>> = [];
  const ratios: Section['ratios'] = [];
  const notes: string[] = [];
  let unpin: (() => void) | null = null;
  try {
    json = await startJsonServer(data);
    notes.push(...(await checkSameWork(jql.url, hand.url, json.url)));
    unpin = pinServers([jql, hand, json].map((child) => child.process.pid as number));
    notes.push(
      unpin
        ? 'Every server process ran on the last CPU core and autocannon on the others (`taskset`), so each server had the same core for the whole run.'
        : 'Processes were not pinned to cores (no `taskset`, or one core): the scheduler placed them, and figures vary more between runs.',
    );
    type Local = 'jql' | 'handwritten' | 'handwritten-post';
    const targets: Local[] = ['jql', 'handwritten', 'handwritten-post'];
    const serverOf = (target: Local): Child => (target === 'jql' ? jql : hand);
    for (const scenario of SCENARIOS) {
      const runs: Record<Local, LoadResult[]> = { jql: [], handwritten: [], 'handwritten-post': [] };
      // Unmeasured: a server's first seconds on a scenario compile its code, and made each first round
      // about 15% slower than the rest (the page: JQL 1,710 against 2,030 requests/s, the GET 2,041
      // against 2,210), one low round in five pulling every median down.
      for (const target of targets) await load({ url: serverOf(target).url, request: requestFor(target, scenario.name, data.items), durationS: options.durationS, connections: options.connections });
      for (let round = 0; round < options.rounds; round++) {
        // Rotate which goes first, so none always follows another's warm-up.
        for (let k = 0; k < targets.length; k++) {
          const target = targets[(round + k) % targets.length] as Local;
          runs[target].push(await measure(serverOf(target), target, scenario.name, data, options));
        }
      }
      // The same fixed load on all (60% of what the JQL server answered flat out): CPU time per
      // request without the effects of either side being the bottleneck.
      const rate = Math.round(0.6 * median(runs.jql.map((r) => r.rps)));
      const fixed: Record<Local, LoadResult[]> = { jql: [], handwritten: [], 'handwritten-post': [] };
      for (let round = 0; round < Math.max(1, Math.floor(options.rounds / 2)); round++) {
        for (const target of targets) fixed[target].push(await measure(serverOf(target), target, scenario.name, data, options, rate));
      }
      const fixedCpu = (target: Local) => median(fixed[target].map((r) => r.cpuUsPerRequest ?? NaN));
      const share = (target: Local) => `${((100 * fixedCpu(target)) / fixedCpu('jql')).toFixed(0)}%`;
      fixedRows.push([scenario.name, rate, fixedCpu('jql').toFixed(1), fixedCpu('handwritten').toFixed(1), share('handwritten'), fixedCpu('handwritten-post').toFixed(1), share('handwritten-post')]);
      const jsonRun = await measure(json, 'json-server', scenario.name, data, options);
      const summary = (name: string, results: LoadResult[]) => {
        const rps = median(results.map((r) => r.rps));
        const cpu = median(results.map((r) => r.cpuUsPerRequest ?? NaN));
        rows.push([scenario.name, name, Math.round(rps), results.map((r) => Math.round(r.rps)).join(' / '), cpu.toFixed(1), median(results.map((r) => r.p50)), median(results.map((r) => r.p99))]);
        return { rps, cpu };
      };
      const j = summary('JQL server (POST /jql)', runs.jql);
      summary('hand-written fastify + better-sqlite3 (GET)', runs.handwritten);
      summary('hand-written, JSON body (POST)', runs['handwritten-post']);
      const s = summary('json-server 0.17 (GET)', [jsonRun]);
      // Each round runs them back to back, so a round's ratio is measured under the same machine
      // load; the median of those ratios is steadier than the ratio of the medians.
      const paired = (other: Local) => median(runs.jql.map((r, i) => r.rps / (runs[other][i] as LoadResult).rps));
      // Issue 14.2: a read by id at 80% of a GET and 90% of a POST (the same transport as JQL's); the
      // filtered page stays at 90% of the GET.
      const getGoal = scenario.name === 'one' ? 0.8 : 0.9;
      const vsGet = paired('handwritten');
      const vsPost = paired('handwritten-post');
      ratios.push({ name: `retrieve ${scenario.name}: JQL / hand-written (GET) requests per second`, value: vsGet, unit: '%', goal: `>= ${getGoal * 100}%`, met: vsGet >= getGoal });
      ratios.push({
        name: `retrieve ${scenario.name}: JQL / hand-written with a JSON body (POST) requests per second`,
        value: vsPost,
        unit: '%',
        ...(scenario.name === 'one' ? { goal: '>= 90%', met: vsPost >= 0.9 } : {}),
      });
      ratios.push({ name: `retrieve ${scenario.name}: hand-written (GET) / JQL CPU time per request at the same load`, value: fixedCpu('handwritten') / fixedCpu('jql'), unit: '%' });
      ratios.push({ name: `retrieve ${scenario.name}: JQL / json-server requests per second`, value: j.rps / s.rps, unit: 'x' });
    }
  } finally {
    unpin?.();
    await Promise.all([jql.stop(), hand.stop(), json?.stop()]);
  }
  let profileText = '';
  if (options.profile) {
    const { readdirSync } = await import('node:fs');
    for (const file of readdirSync(profileDir)) profileText += `\n\`\`\`\n${summarize(join(profileDir, file), 30)}\n\`\`\`\n`;
  }
  const body = [
    SCENARIOS.map((s) => `- \`${s.name}\`: ${s.label}`).join('\n'),
    '',
    `autocannon, ${options.connections} connections, ${options.durationS} s per run after a 1 s warm-up (and, before a scenario's first round, ${options.durationS} s unmeasured for each server); the JQL server and the hand-written endpoint (as GET, and as POST with a JSON body like JQL's) take turns for ${options.rounds} rounds (medians; every round's figure listed; the ratios are medians of each round's ratio), json-server one run. Each server is its own process; autocannon runs in the benchmark's process, so the two share the machine's 2 cores (pinned apart where \`taskset\` exists; see below). "CPU µs/request" is the server process's user + system time divided by the requests it answered: unlike requests per second, it does not depend on whether the server or the load generator was the bottleneck.`,
    '',
    table(['scenario', 'server', 'req/s (median)', 'req/s per round', 'CPU µs/request', 'p50 ms', 'p99 ms'], rows),
    '',
    'At the same fixed load (autocannon `overallRate`, 60% of the JQL server\'s flat-out rate), neither side is the bottleneck, so the CPU time per request compares the work each server does:',
    '',
    table(['scenario', 'requests/s', 'JQL CPU µs/request', 'hand-written (GET) µs', 'GET / JQL', 'hand-written (POST) µs', 'POST / JQL'], fixedRows),
    '',
    notes.map((n) => `- ${n}`).join('\n'),
    '',
    WHERE_THE_TIME_GOES,
    profileText,
  ].join('\n');
  return { title: 'Retrieve throughput', body, ratios, done: true };
}
