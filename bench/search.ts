/**
 * Search: the trigram FTS5 index against the LIKE scan, over the 100,000 benchmark items, with the
 * SQL the server builds for each (src/server/query/search.ts in its two modes). For each term the
 * full list of matching ids must be identical; then the retrieve the server runs (a page of 20 plus
 * the count) is timed both ways, in process, so only the SQL differs.
 */
import Database from 'better-sqlite3';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { compileSearch, type SearchMode } from '../src/server/query/search.ts';
import { resolveWorkspace } from '../src/server/workspace/resolve.ts';
import type { ModelDef } from '../src/server/workspace/types.ts';
import { BENCH_WORKSPACE, type BenchData } from './data.ts';
import { median } from './load.ts';
import { table, type Section } from './report.ts';

const COLUMNS = 't0."id", t0."title", t0."body", t0."status", t0."priority", t0."owner", t0."created_at"';

function termsOf(data: BenchData): Array<{ label: string; term: string }> {
  const v = data.vocabulary;
  const word = (rank: number) => v[Math.min(rank, v.length - 1)] as string;
  return [
    { label: 'common word', term: word(3) },
    { label: 'frequent word', term: word(40) },
    { label: 'medium word', term: word(400) },
    { label: 'rare word', term: word(4000) },
    { label: 'rare word, upper case', term: word(3500).toUpperCase() },
    { label: 'two words', term: `${word(60)} ${word(61).slice(0, 3)}` },
    { label: 'three letters', term: word(10).slice(1, 4) },
    { label: 'no match', term: 'qqzx' },
  ];
}

export async function searchBench(data: BenchData, options: { repeats: number }): Promise<Section> {
  const ws = resolveWorkspace(BENCH_WORKSPACE, null);
  const model = ws.models.get('bench.Item') as ModelDef;
  const db = new Database(join(data.dataDir, 'jql.sqlite'), { readonly: true });
  const rows: Array<Array<string | number>> = [];
  const speedups: number[] = [];
  let identical = true;
  try {
    const run = (term: string, mode: SearchMode) => {
      const params: Array<string | number> = [];
      const where = compileSearch(model, term, params, mode) as string;
      const ids = (db.prepare(`SELECT t0."id" AS id FROM "bench.Item" AS t0 WHERE ${where} ORDER BY t0."id"`).all(...params) as Array<{ id: number }>).map((r) => r.id);
      const page = db.prepare(`SELECT ${COLUMNS} FROM "bench.Item" AS t0 WHERE ${where} ORDER BY t0."id" ASC LIMIT ? OFFSET ?`);
      const count = db.prepare(`SELECT count(*) AS n FROM "bench.Item" AS t0 WHERE ${where}`);
      const times: number[] = [];
      for (let i = 0; i < options.repeats; i++) {
        const started = performance.now();
        const found = page.all(...params, 20, 0);
        if (found.length === 20) count.get(...params);
        times.push(performance.now() - started);
      }
      return { ids, ms: median(times) };
    };
    for (const { label, term } of termsOf(data)) {
      const like = run(term, 'like');
      const fts = run(term, 'auto');
      const same = isDeepStrictEqual(like.ids, fts.ids);
      identical &&= same;
      speedups.push(like.ms / fts.ms);
      rows.push([label, `\`${term}\``, like.ids.length, like.ms.toFixed(2), fts.ms.toFixed(2), `${(like.ms / fts.ms).toFixed(1)}x`, same ? 'yes' : '**NO**']);
    }
  } finally {
    db.close();
  }
  if (!identical) throw new Error('FTS and LIKE answered different ids for some term');
  const geomean = Math.exp(speedups.reduce((sum, s) => sum + Math.log(s), 0) / speedups.length);
  const body = [
    `Terms of 3+ characters over \`title\` and \`body\` (about ${Math.round(data.items / 1000)}k rows, ~250 characters each). Each timing is the median of ${options.repeats} runs of what a retrieve runs: the first page of 20 ordered by id, plus the count when the page is full. "ids identical" compares the complete list of matching ids.`,
    '',
    table(['term', 'text', 'matches', 'LIKE ms', 'FTS ms', 'speed-up', 'ids identical'], rows),
    '',
    `Geometric mean speed-up: ${geomean.toFixed(1)}x. The index narrows the rows; the same LIKE then confirms each candidate, which is why results are identical by construction (src/server/query/search.ts).`,
  ].join('\n');
  return { title: 'Search: FTS5 trigram index vs LIKE scan', body, done: true, ratios: [{ name: 'search: FTS speed-up over LIKE (geometric mean of terms, identical results)', value: geomean, unit: 'x' }] };
}
