/**
 * Issue 32.1 and 32.4: `workspace from-describe`, `clone` and `run` against a source that answers
 * 1 GiB, one that drips a byte a second and one that never answers. Each command ends within its
 * stated bound, says what happened in one sentence, and its memory stays bounded (peak RSS of the
 * child process under 300 MB).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeManifest, serializeRequestFile } from '../../shared/collections/format.ts';
import { runCli, type CliOutcome } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';
import { hostileSource, type HostileSource } from '../testing/hostile-source.ts';

let source: HostileSource | null = null;
afterEach(async () => {
  await source?.close();
  source = null;
});

function collection(): string {
  const dir = tempDir('jql-hostile-col-');
  writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ format: 1, name: 'hostile' }));
  mkdirSync(join(dir, 'q'));
  const document = JSON.stringify({ __meta__: { namespace: 'shop.Product', intent: 'retrieve' } });
  writeFileSync(join(dir, 'q', 'list.jql.json'), serializeRequestFile({ document, options: {}, assertions: [{ target: 'status', op: 'eq', value: 200 }], captures: [], tags: [] }));
  return dir;
}

function commands(url: string): Array<{ name: string; args: string[] }> {
  const query = join(tempDir('jql-hostile-q-'), 'query.json');
  writeFileSync(query, JSON.stringify({ __meta__: { namespace: 'shop.Product', intent: 'retrieve' } }));
  return [
    { name: 'from-describe', args: ['workspace', 'from-describe', url] },
    { name: 'clone', args: ['clone', url, '--query', query, '--out', join(tempDir('jql-hostile-out-'), 'copy'), '--quiet'] },
    { name: 'run', args: ['run', collection(), '--server', url, '--quiet'] },
  ];
}

/**
 * Every command against `url` with `extra` options, all started at once: each spends its time waiting
 * (on its own start, on its deadline, on the source), so together they take about as long as one.
 */
async function runEach(url: string, extra: string[], killAfterMs?: number): Promise<Array<[{ name: string; args: string[] }, CliOutcome]>> {
  const list = commands(url);
  const outcomes = await Promise.all(list.map((command) => runCli([...command.args, ...extra], killAfterMs === undefined ? {} : { killAfterMs })));
  return list.map((command, index) => [command, outcomes[index] as CliOutcome]);
}

/** The one sentence a command ended with: a single line, no stack trace. */
function oneSentence(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  expect(text).not.toMatch(/\n\s+at /);
  return lines.join('\n');
}

describe('a hostile source', () => {
  it('answering 1 GiB: every command stops at its byte cap, in one sentence, with bounded memory', async () => {
    source = await hostileSource('huge');
    for (const [command, outcome] of await runEach(source.url, ['--max-answer-bytes', '1000000', '--timeout', '20'])) {
      const said = oneSentence(outcome.stderr + outcome.stdout);
      expect(said, command.name).toMatch(/the answer is larger than 1000000 bytes/);
      expect(outcome.code, command.name).not.toBe(0);
      expect(outcome.peakRssMb, command.name).toBeLessThan(300);
    }
  }, 120_000);

  it('answering 1 GiB with the default cap: refused at 80 MiB with memory under 300 MB', async () => {
    source = await hostileSource('huge');
    const outcome = await runCli(['workspace', 'from-describe', source.url]);
    expect(outcome.stderr).toMatch(/^jql-console: .*the answer is larger than 83886080 bytes$/);
    expect(outcome.code).toBe(1);
    expect(outcome.peakRssMb).toBeLessThan(300);
  }, 60_000);

  for (const behaviour of ['drip', 'silence'] as const) {
    it(`that ${behaviour === 'drip' ? 'drips a byte a second' : 'never answers'}: every command ends at its deadline and says so`, async () => {
      source = await hostileSource(behaviour, { dripMs: 1000 });
      for (const [command, outcome] of await runEach(source.url, ['--timeout', '2'], 20_000)) {
        const said = oneSentence(outcome.stderr + outcome.stdout);
        expect(said, command.name).toMatch(/no answer within 2 s/);
        expect(outcome.code, command.name).not.toBe(0);
        // The deadline plus the start of Node and of the command.
        expect(outcome.ms, command.name).toBeLessThan(10_000);
        expect(outcome.peakRssMb, command.name).toBeLessThan(300);
      }
    }, 90_000);
  }
});
