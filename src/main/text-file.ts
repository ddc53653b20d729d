/** A small JSON-ish file in the user data folder, written atomically (temp file + rename). */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface TextFile {
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

export function textFileAt(path: string, mode = 0o600): TextFile {
  return {
    async read() {
      try {
        return await readFile(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async write(text) {
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, text, { mode });
      await rename(temp, path);
    },
  };
}

export function memoryTextFile(initial: string | null = null): TextFile & { text: string | null } {
  const file = {
    text: initial,
    async read() {
      return file.text;
    },
    async write(text: string) {
      file.text = text;
    },
  };
  return file;
}
