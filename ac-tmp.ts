import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_WORKSPACE } from './bench/data.ts';
import { load, startNode } from './bench/load.ts';
import { summarize } from './bench/profile-summary.ts';
const dir = mkdtempSync('/tmp/speed/ac-');
writeFileSync(join(dir, 'ws.json'), JSON.stringify(BENCH_WORKSPACE));
const prof = process.argv[2] === 'prof';
const server = await startNode(['bin/jql-console.mjs', 'serve', '--workspace', join(dir, 'ws.json'), '--data', join(dir, 'data'), '--port', '0', '--production'], /listening on (http\S+)/, { nodeArgs: prof ? ['--cpu-prof', `--cpu-prof-dir=${dir}/prof`, '--cpu-prof-interval', '100'] : [] });
for (let i = 0; i < 200; i++) await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'bench.Item', intent: 'create' }, title: `t${i}` }) });
const request = () => ({ method: 'POST' as const, path: '/jql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'bench.Item', intent: 'retrieveOne', uniqueObject: { id: 1 + Math.floor(Math.random() * 200) } } }) });
const hand = await startNode(['bench/servers/handwritten.ts', join(dir, 'data', 'jql.sqlite')], /listening (http\S+)/, { nodeArgs: prof ? ['--cpu-prof', `--cpu-prof-dir=${dir}/profh`, '--cpu-prof-interval', '100'] : [] });
const handReq = () => ({ method: 'POST' as const, path: '/items/one', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1 + Math.floor(Math.random() * 200) }) });
const rate = Number(process.argv[3] ?? 5000);
await load({ url: server.url, request, durationS: 3, connections: 10, rate });
await load({ url: hand.url, request: handReq, durationS: 3, connections: 10, rate });
const ratios: number[] = []; const j: number[] = []; const hh: number[] = [];
for (let r = 0; r < 6; r++) {
  const res = await load({ url: server.url, request, durationS: 3, connections: 10, pid: server.process.pid, rate });
  const h = await load({ url: hand.url, request: handReq, durationS: 3, connections: 10, pid: hand.process.pid, rate });
  ratios.push((h.cpuUsPerRequest ?? 0) / (res.cpuUsPerRequest ?? 1)); j.push(res.cpuUsPerRequest ?? 0); hh.push(h.cpuUsPerRequest ?? 0);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
console.log('jql', med(j).toFixed(1), 'hand-post', med(hh).toFixed(1), 'ratio', med(ratios).toFixed(2), ratios.map((r) => r.toFixed(2)).join(' '));
await server.stop();
await hand.stop();
if (prof) for (const d of ['prof', 'profh']) for (const f of readdirSync(`${dir}/${d}`)) console.log(d, summarize(join(dir, d, f), 70));
