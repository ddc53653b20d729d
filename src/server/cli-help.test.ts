/**
 * Issue 32.10: `--version` prints the version, and every command and subcommand answers `--help`
 * with its options, each with its default, exit 0 (before, `run --help` was "Unknown option --help").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './cli.ts';
import { runCli, type CliOutcome } from './testing/cli-child.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('jql-console --help and --version', () => {
  it('--version prints the package version', async () => {
    const outcome = await runCli(['--version']);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists every command', async () => {
    const outcome = await runCli(['--help']);
    expect(outcome.code).toBe(0);
    for (const command of COMMANDS) expect(outcome.stdout).toContain(`jql-console ${command.words.join(' ')}`);
  });

  it('every command answers --help with each of its options and their defaults', async () => {
    expect(COMMANDS.map((c) => c.words.join(' '))).toEqual(expect.arrayContaining(['serve', 'user add', 'run', 'collection import', 'workspace from-describe', 'clone']));
    // Started together: each child waits mostly on its own start, and the machine has a core to spare.
    const outcomes = await Promise.all(COMMANDS.map((command) => runCli([...command.words, '--help'])));
    for (const [index, command] of COMMANDS.entries()) {
      const outcome = outcomes[index] as CliOutcome;
      const name = command.words.join(' ');
      expect(outcome.code, name).toBe(0);
      expect(outcome.stderr, name).toBe('');
      expect(outcome.stdout, name).toMatch(new RegExp(`^Usage: jql-console ${name}`));
      for (const option of command.options) {
        const line = outcome.stdout.split('\n').find((l) => l.trimStart().startsWith(`${option.flag}${option.value ? ` ${option.value}` : ''} `));
        expect(line, `${name} ${option.flag}`).toBeDefined();
        if (option.default !== undefined) expect(line, `${name} ${option.flag}`).toContain(`(default: ${option.default})`);
      }
    }
  }, 60_000);

  it('the options that bound a remote read are in the help of every command that reads one', async () => {
    const outcomes = await Promise.all([['run'], ['clone'], ['workspace', 'from-describe']].map((words) => runCli([...words, '-h'])));
    for (const outcome of outcomes) {
      expect(outcome.stdout).toMatch(/--timeout SECONDS +.*\(default: 60\)/);
      expect(outcome.stdout).toMatch(/--max-answer-bytes BYTES +.*\(default: 80 MiB \(83886080\)\)/);
    }
  }, 30_000);
});
