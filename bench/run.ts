/**
 * `npm run bench`: every benchmark of issue 7 in one run, side by side on the same data, printing the
 * ratios and writing docs/benchmarks.md. Options: `--only=retrieve,search,nested,uploads,streams,opening,floor,console,hostile,tasks`,
 * `--quick` (short runs, to try the harness), `--profile` (CPU profile of the JQL server under load, and of each console step over its goal in `tasks`),
 * `--entries=a,b` (the hostile entries `tasks` walks), `--no-write` (print only), `--out FILE` (write the report there; a full run writes docs/benchmarks.md). Every server it starts is a child process on loopback, stopped at the end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { consoleBench } from './console.ts';
import { consoleOpeningBench } from './console-opening.ts';
import { buildBenchData, type BenchData } from './data.ts';
import { editorFloorBench } from './editor-floor.ts';
import { nestedBench } from './nested.ts';
import { hostileBench } from './hostile.ts';
import { longTasksBench } from './long-tasks.ts';
import { formatRatio, markdown, soakSectionOf, type Section } from './report.ts';
import { retrieveBench } from './retrieve.ts';
import { searchBench } from './search.ts';
import { streamsBench } from './streams.ts';
import { uploadsBench } from './uploads.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    out: { type: 'string' },
    entries: { type: 'string' },
  },
});
const ALL = ['retrieve', 'search', 'nested', 'uploads', 'streams', 'opening', 'floor', 'console', 'hostile', 'tasks'];
const wanted = new Set(values.only ? values.only.split(',') : ALL);
const quick = values.quick ?? false;
const memory = new Database(':memory:');
process.env.BENCH_SQLITE_VERSION = (memory.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
memory.close();

const started = new Date();
const t0 = performance.now();
const log = (line: string) => console.log(`[bench ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
// The 100,000 items are built once, for the first benchmark that needs them.
const built: { data: BenchData | null } = { data: null };
const benchData = async (): Promise<BenchData> => {
  if (built.data) return built.data;
  log('building 100,000 items (and the search index) ...');
  const data = (built.data = await buildBenchData(100_000));
  log(`data ready in ${(data.buildMs / 1000).toFixed(1)} s at ${data.dir}`);
  return data;
};
const scratch = mkdtempSync(join(tmpdir(), 'jql-bench-scratch-'));
const sections: Section[] = [];
const run = async (name: string, bench: () => Promise<Section>) => {
  if (!wanted.has(name)) return;
  log(`${name} ...`);
  try {
    const section = await bench();
    sections.push(section);
    for (const ratio of section.ratios) log(`  ${formatRatio(ratio)}`);
  } catch (error) {
    log(`  ${name} FAILED: ${(error as Error).stack ?? String(error)}`);
    sections.push({ title: name, body: `Failed: ${(error as Error).message}`, ratios: [], done: false });
    process.exitCode = 1;
  }
};
try {
  await run('retrieve', async () => retrieveBench(await benchData(), { durationS: quick ? 2 : 4, rounds: quick ? 1 : 5, connections: 10, profile: values.profile ?? false }));
  await run('search', async () => searchBench(await benchData(), { repeats: quick ? 3 : 9 }));
  await run('nested', async () => nestedBench(await benchData(), { repeats: quick ? 2 : 5 }));
  await run('uploads', async () => uploadsBench(await benchData(), { bytes: quick ? 64 * 2 ** 20 : 2 ** 30 }));
  await run('streams', () => streamsBench(scratch, { subscribers: quick ? 100 : 1000, rate: 200, seconds: quick ? 2 : 5, disconnects: 100, threads: 2, rounds: quick ? 1 : 3, profile: values.profile ?? false }));
  await run('opening', () => consoleOpeningBench({ loads: quick ? 1 : 5 }));
  await run('floor', () => editorFloorBench({ loads: quick ? 3 : 7 }));
  await run('console', async () => consoleBench(await benchData()));
  await run('hostile', () => hostileBench());
  await run('tasks', () => longTasksBench({ profile: values.profile ?? false, entries: values.entries?.split(',') }));
} finally {
  if (built.data) rmSync(built.data.dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
const elapsed = (performance.now() - t0) / 1000;
console.log('\nRatios:');
for (const section of sections) for (const ratio of section.ratios) console.log(`  ${formatRatio(ratio)}`);
for (const section of sections) if (!section.done) console.log(`  not done: ${section.title}`);
const command = `npm run bench${values.only ? ` -- --only=${values.only}` : ''}${quick ? ' -- --quick' : ''}`;
// docs/benchmarks.md holds full runs only; `--out FILE` writes any run's report there.
const out = values.out ?? (!values['no-write'] && !quick && !values.only ? 'docs/benchmarks.md' : null);
if (out) {
  writeFileSync(out, markdown(sections, command, started, elapsed, soakSectionOf(out)));
  log(`wrote ${out}`);
}
log(`done in ${elapsed.toFixed(0)} s`);
