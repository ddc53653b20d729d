/**
 * docs/protocol.md cannot drift from the server: every example in it runs, in document order, against
 * a fresh demo server over real HTTP and WebSocket, and its answer must be the documented one.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningServer } from '../../src/server/index.ts';
import { tempDir } from '../../src/server/testing/fixture.ts';
import { fencedBlocks, readExamples } from './examples.ts';
import { ExampleRunner } from './run-examples.ts';

const markdown = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');
const examples = readExamples(markdown);

let server: RunningServer;
let runner: ExampleRunner;
beforeAll(async () => {
  server = await start({ dataDir: tempDir('jql-docs-'), port: 0, env: {} });
  runner = new ExampleRunner(server.url);
});
afterAll(async () => {
  runner?.close();
  await server?.close();
});

describe('docs/protocol.md', () => {
  it('has a runnable example in every section', () => {
    const sections = [...markdown.matchAll(/^## (.*)$/gm)].map((m) => m[1] as string);
    const withExample = new Set<string>();
    let current = '';
    for (const line of markdown.split('\n')) {
      const heading = /^## (.*)$/.exec(line);
      if (heading) current = heading[1] as string;
      if (/^```(http|websocket)\b/.test(line)) withExample.add(current);
    }
    expect(sections.filter((section) => !withExample.has(section))).toEqual([]);
    expect(fencedBlocks(markdown).length).toBeGreaterThan(0);
  });

  for (const example of examples) {
    it(`${example.section} (line ${example.line})`, async () => {
      // One line per difference, so a failure reads as what the docs say against what the server did.
      expect((await runner.run(example)).join('\n')).toBe('');
    });
  }
});
