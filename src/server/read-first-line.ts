/** The first line of standard input: passwords are read from there, never from the command line. */
import { createInterface } from 'node:readline';

export function readFirstLine(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  return new Promise((resolve) => {
    const lines = createInterface({ input });
    let done = false;
    lines.once('line', (line) => {
      done = true;
      lines.close();
      resolve(line.replace(/\r$/, ''));
    });
    lines.once('close', () => {
      if (!done) resolve('');
    });
  });
}
