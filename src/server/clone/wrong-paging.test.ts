/**
 * Issue 32.9: a source that pages wrongly must not yield a copy that seems whole. The hostile source
 * answers three models by `id` pages of 5 and says 20 match each: one repeats a page, one's ids fall
 * below the page before, one answers an empty page. `jql-console clone` ends, keeps what it read,
 * names each model as incomplete (with why, how many it got and what the source said) in
 * clone-manifest.json and in one sentence each on standard error, and exits 3 (a partial copy).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLONE_MANIFEST_FILE, type CloneManifest } from '../../shared/clone.ts';
import { runCli } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';
import { hostileSource, type HostileSource } from '../testing/hostile-source.ts';

const PAGE = 5;
const CLAIMED = 20;
const model = { fields: { name: { type: 'string' } } };
const DESCRIBE = { workspace: 'wrong-paging', apps: { shop: { models: { Repeats: model, Falls: model, Stalls: model } } }, limits: { defaultLimit: PAGE, maxLimit: PAGE, maxQueriesPerRequest: 4 } };
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The ids each model answers at an offset: right for the first pages, then wrong. */
function idsAt(namespace: string, offset: number): number[] {
  if (namespace === 'shop.Repeats') return offset === 0 ? range(1, 5) : range(6, 10);
  if (namespace === 'shop.Falls') return offset === 0 ? range(6, 10) : range(1, 5);
  return offset === 0 ? range(1, 5) : [];
}

let source: HostileSource | null = null;
afterEach(async () => {
  await source?.close();
  source = null;
});

describe('clone from a source that pages wrongly', () => {
  it('stops each wrong read, names it incomplete in the manifest and on standard error, and exits 3', async () => {
    const asked: string[] = [];
    source = await hostileSource('paging', {
      paging: {
        describe: DESCRIBE,
        page: (namespace, offset) => (asked.push(`${namespace}@${offset}`), { ids: idsAt(namespace, offset), filtered: CLAIMED }),
      },
    });
    const dir = tempDir('jql-wrong-paging-');
    const query = join(dir, 'query.json');
    const read = (namespace: string) => ({ __meta__: { namespace, intent: 'retrieve' } });
    writeFileSync(query, JSON.stringify({ repeats: read('shop.Repeats'), falls: read('shop.Falls'), stalls: read('shop.Stalls') }));
    const out = join(dir, 'copy');
    const outcome = await runCli(['clone', source.url, '--query', query, '--out', out, '--depth', '0', '--quiet'], { killAfterMs: 30_000 });

    expect(outcome.code, outcome.stderr).toBe(3);
    const manifest = JSON.parse(readFileSync(join(out, CLONE_MANIFEST_FILE), 'utf8')) as CloneManifest;
    // In the order the reads stopped: the repeat shows only on the third page.
    expect(manifest.incomplete).toEqual([
      { model: 'shop.Falls', read: 'shop.Falls (subquery "falls")', reason: "the source's ids fell on page 2 (id 1 after id 10) while paging by id ascending", copied: 10, sourceSaid: CLAIMED },
      { model: 'shop.Stalls', read: 'shop.Stalls (subquery "stalls")', reason: `the source answered page 2 with no records, though it said ${CLAIMED} match`, copied: 5, sourceSaid: CLAIMED },
      { model: 'shop.Repeats', read: 'shop.Repeats (subquery "repeats")', reason: 'the source repeated ids on page 3 (ids 6-10 again)', copied: 10, sourceSaid: CLAIMED },
    ]);
    // What was read is kept (the falling page's records are real ones), and the partial reads are listed as not copied.
    expect(manifest.counts).toEqual({ 'shop.Repeats': 10, 'shop.Falls': 10, 'shop.Stalls': 5 });
    expect(manifest.notCopied.map((item) => item.what)).toEqual(
      expect.arrayContaining([`the rest of shop.Repeats (subquery "repeats") (10 record(s) read of the ${CLAIMED} it said match)`]),
    );
    // Each read stopped at its wrong page: never asked again.
    expect(asked.filter((entry) => entry.startsWith('shop.Repeats'))).toEqual(['shop.Repeats@0', 'shop.Repeats@5', 'shop.Repeats@10']);
    expect(asked.filter((entry) => !entry.startsWith('shop.Repeats'))).toHaveLength(4);
    for (const [name, got] of [['shop.Repeats', 10], ['shop.Falls', 10], ['shop.Stalls', 5]] as const) {
      expect(outcome.stderr).toContain(`jql-console: the copy of ${name} is partial: `);
      expect(outcome.stderr).toContain(`stopped after ${got} record(s) of the ${CLAIMED} it said match; clone-manifest.json "incomplete" names it.`);
    }
  }, 60_000);
});
