/**
 * docs/workspace.md cannot drift from the CLI: its files are written to an empty folder and every
 * command runs there, in document order, and must print what the page shows.
 */
import { cpSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/server/testing/fixture.ts';
import { outputMatches, readConsoleExamples } from './console-examples.ts';
import { runCommand } from './run-console.ts';

const markdown = readFileSync(new URL('../../docs/workspace.md', import.meta.url), 'utf8');
const { files, commands } = readConsoleExamples(markdown);

let folder: string;
beforeAll(() => {
  folder = tempDir('jql-docs-workspace-');
  for (const file of files) {
    mkdirSync(dirname(join(folder, file.path)), { recursive: true });
    writeFileSync(join(folder, file.path), file.text);
  }
  // The collection that the `run` example runs, as in the project's examples/ folder.
  cpSync(new URL('../../examples/demo-collection', import.meta.url), join(folder, 'demo-collection'), { recursive: true });
});

describe('docs/workspace.md', () => {
  it('has a workspace file and commands to run', () => {
    expect(files.map((file) => file.path)).toContain('jql.workspace.json');
    expect(commands.length).toBeGreaterThan(3);
  });

  for (const example of commands) {
    it(`${example.section}: $ ${example.command.slice(0, 70)} (line ${example.line})`, async () => {
      const result = await runCommand(example, folder);
      // The whole output on failure, against what the page shows.
      expect(result.ok ? '' : `printed:\n${result.output}\nthe page shows:\n${example.expected.join('\n')}`).toBe('');
    }, 60_000);
  }
});

describe('matching command output', () => {
  it('takes … for any lines or any text', () => {
    expect(outputMatches(['a', '…', 'z'], ['a', 'b', 'c', 'z'])).toBe(true);
    expect(outputMatches(['a', '…'], ['a'])).toBe(true);
    expect(outputMatches(['listening on http://127.0.0.1:…'], ['listening on http://127.0.0.1:4321'])).toBe(true);
    expect(outputMatches(['a'], ['a', 'b'])).toBe(false);
    expect(outputMatches(['a', 'z'], ['a', 'b', 'z'])).toBe(false);
  });
});
