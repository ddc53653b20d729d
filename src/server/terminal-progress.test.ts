/** Issue 32.10: progress is drawn on a terminal only, and never with --quiet. */
import { describe, expect, it } from 'vitest';
import { terminalProgress } from './terminal-progress.ts';

function stream(isTTY: boolean): { written: string[]; stream: NodeJS.WriteStream } {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 80, write: (text: string) => (written.push(text), true) } as unknown as NodeJS.WriteStream };
}

describe('terminalProgress', () => {
  it('draws "done of total" on a terminal and clears it at the end', () => {
    const tty = stream(true);
    const progress = terminalProgress(tty.stream, false);
    progress.show('run: 1 of 3 requests done');
    progress.done();
    expect(tty.written.join('')).toContain('run: 1 of 3 requests done');
    expect(tty.written.at(-1)).toBe('\r\x1b[2K');
  });

  it('stays quiet when the output is not a terminal, or with --quiet', () => {
    for (const [isTTY, quiet] of [[false, false], [true, true]] as const) {
      const out = stream(isTTY);
      const progress = terminalProgress(out.stream, quiet);
      progress.show('clone: records, 10 of 20 records');
      progress.done();
      expect(out.written).toEqual([]);
    }
  });
});
