import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createState } from './src/server/state.ts';
import { runRequest } from './src/server/dispatch/run-request.ts';
import { BENCH_WORKSPACE } from './bench/data.ts';
const dir = mkdtempSync('/tmp/speed/micro-');
writeFileSync(join(dir, 'ws.json'), JSON.stringify(BENCH_WORKSPACE));
const rt = await createState({ workspace: join(dir, 'ws.json'), dataDir: join(dir, 'data'), env: {} });
const post = (body: unknown) => runRequest(rt.state, { body: body as any, infoLevel: 0, shape: 'standard', credentials: {} }, (e) => { throw e; });
for (let i = 0; i < 1000; i++) await post({ __meta__: { namespace: 'bench.Item', intent: 'create' }, title: `t${i}`, body: 'b', status: 'open', priority: i % 5 });
const one = () => ({ __meta__: { namespace: 'bench.Item', intent: 'retrieveOne', uniqueObject: { id: 1 + Math.floor(Math.random() * 1000) } } });
const page = () => ({ __meta__: { namespace: 'bench.Item', intent: 'retrieve', filter: { status: 'open', priority__gte: 3 }, ordering: ['priority'], limit: 20, offset: Math.floor(Math.random() * 100) } });
const which = process.argv[2] === 'page' ? page : one;
const N = Number(process.argv[3] ?? 200000);
for (let round = 0; round < 3; round++) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await post(which());
  const u = process.cpuUsage(t0);
  console.log(((u.user + u.system) / N).toFixed(2), 'µs/request');
}
rt.state.db.close();
rmSync(dir, { recursive: true, force: true });
