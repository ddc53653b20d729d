/**
 * The command-line examples of a Markdown document (docs/workspace.md): `console` blocks hold
 * commands (`$ command`) each followed by the output it must print, and blocks whose info string names
 * a `file=PATH` are files the commands expect to find. A line `…` of expected output stands for any
 * number of lines, and `…` inside a line for any text.
 */
import { fencedBlocks } from './examples.ts';

export interface ConsoleCommand {
  line: number;
  section: string;
  command: string;
  expected: string[];
}

export interface ExampleFile {
  path: string;
  text: string;
}

export function readConsoleExamples(markdown: string): { files: ExampleFile[]; commands: ConsoleCommand[] } {
  const files: ExampleFile[] = [];
  const commands: ConsoleCommand[] = [];
  for (const block of fencedBlocks(markdown)) {
    const file = /(?:^|\s)file=(\S+)/.exec(block.info);
    if (file) files.push({ path: file[1] as string, text: `${block.text}\n` });
    if (block.info.split(/\s+/)[0] !== 'console') continue;
    block.text.split('\n').forEach((text, index) => {
      if (text.startsWith('$ ')) commands.push({ line: block.line + index + 1, section: block.section, command: text.slice(2), expected: [] });
      else if (commands.length === 0 || commands[commands.length - 1]!.line < block.line) throw new Error(`line ${block.line + index + 1}: output before any "$ command"`);
      else commands[commands.length - 1]!.expected.push(text);
    });
  }
  return { files, commands };
}

const ANY = '…';

function lineMatches(expected: string, actual: string): boolean {
  const pattern = expected
    .split(ANY)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Whether the output lines are the expected ones (`…` lines skip any number of lines). */
export function outputMatches(expected: readonly string[], actual: readonly string[]): boolean {
  const match = (e: number, a: number): boolean => {
    if (e === expected.length) return a === actual.length;
    if (expected[e] === ANY) {
      for (let skip = a; skip <= actual.length; skip++) if (match(e + 1, skip)) return true;
      return false;
    }
    return a < actual.length && lineMatches(expected[e] as string, actual[a] as string) && match(e + 1, a + 1);
  };
  return match(0, 0);
}
