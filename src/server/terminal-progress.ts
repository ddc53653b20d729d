/**
 * One progress line for long work on the command line (`clone`, `run`): redrawn in place on a
 * terminal, and nothing at all when the output is a file or a pipe or `--quiet` was given, so logs
 * and CI output hold only the results.
 */
export interface Progress {
  show(line: string): void;
  /** Clears the line before the final sentence is printed. */
  done(): void;
}

const SILENT: Progress = { show: () => undefined, done: () => undefined };

/** At most this often a redraw: a fast clone must not spend its time on the terminal. */
const REDRAW_MS = 100;

export function terminalProgress(stream: NodeJS.WriteStream | null, quiet: boolean): Progress {
  if (quiet || !stream || stream.isTTY !== true) return SILENT;
  let last = 0;
  let shown = false;
  return {
    show(line) {
      const now = Date.now();
      if (now - last < REDRAW_MS) return;
      last = now;
      shown = true;
      stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, (stream.columns ?? 80) - 1))}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
