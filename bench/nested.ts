/**
 * Nested selection: a retrieve of items with their owner, the owner's team and the item's notes (a
 * reference, a reference of a reference and a reverse relation) costs the same number of SQL
 * statements whatever the page size (docs/protocol.md "Field selection"), read from `query_info_level=1`.
 */
import { median } from './load.ts';
import { table, type Section } from './report.ts';
import type { BenchData } from './data.ts';
import { startJql } from './retrieve.ts';

const SIZES = [10, 100, 1000];

export async function nestedBench(data: BenchData, options: { repeats: number }): Promise<Section> {
  const jql = await startJql(data);
  const rows: Array<Array<string | number>> = [];
  const counts: number[] = [];
  try {
    for (const limit of SIZES) {
      const query = {
        __meta__: { namespace: 'bench.Item', intent: 'retrieve', limit, offset: 5000 },
        title: null,
        owner: { name: null, team: { name: null } },
        notes: { text: null },
      };
      const times: number[] = [];
      let queries = 0;
      let notes = 0;
      for (let i = 0; i < options.repeats; i++) {
        const started = performance.now();
        const res = await fetch(`${jql.url}/jql?query_info_level=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(query) });
        const body = (await res.json()) as any;
        times.push(performance.now() - started);
        if (res.status !== 200 || body.__payload__.length !== limit) throw new Error(`nested retrieve of ${limit} failed: ${JSON.stringify(body.__errors__)}`);
        queries = body.__system__.queries;
        notes = body.__payload__.reduce((sum: number, item: any) => sum + item.notes.length, 0);
      }
      counts.push(queries);
      rows.push([limit, notes, queries, median(times).toFixed(1)]);
    }
  } finally {
    await jql.stop();
  }
  const constant = counts.every((c) => c === counts[0]);
  const body = [
    'Selection: `{"title": null, "owner": {"name": null, "team": {"name": null}}, "notes": {"text": null}}` on `bench.Item` (offset 5000). Statements: the page, the count, one per nested level (owner, team, notes).',
    '',
    table(['rows', 'nested notes', 'SQL statements', 'median ms (HTTP, whole request)'], rows),
    '',
    constant ? `Constant: ${counts[0]} statements at every size.` : `**Not constant**: ${counts.join(', ')}.`,
  ].join('\n');
  return {
    title: 'Nested selection: SQL statements per request',
    body,
    done: true,
    ratios: [{ name: `nested selection: statements at ${SIZES.at(-1)} rows / at ${SIZES[0]} rows`, value: (counts.at(-1) as number) / (counts[0] as number), unit: 'x', goal: '1.00x (constant)', met: constant }],
  };
}
