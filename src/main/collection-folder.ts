/**
 * The collection folder the desktop app's embedded server serves to the Saved view
 * (docs/collections.md): by default `<userData>/collections`, or the folder picked with
 * File > Open Collection Folder… (a Git checkout, usually). Kept in a small file under userData so
 * the next start opens the same one; a folder that no longer exists falls back to the default.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TextFile } from './text-file.ts';

export class CollectionFolder {
  private chosen: string | null = null;

  private readonly file: TextFile;

  private readonly fallback: string;

  constructor(file: TextFile, userDataDir: string) {
    this.file = file;
    this.fallback = join(userDataDir, 'collections');
  }

  /** The folder to serve now; the default one is created so the server can write into it. */
  get current(): string {
    if (this.chosen && isDirectory(this.chosen)) return this.chosen;
    mkdirSync(this.fallback, { recursive: true });
    return this.fallback;
  }

  async load(): Promise<void> {
    try {
      const parsed = JSON.parse((await this.file.read()) ?? '{}') as { folder?: unknown };
      this.chosen = typeof parsed.folder === 'string' ? parsed.folder : null;
    } catch {
      this.chosen = null;
    }
  }

  async choose(folder: string): Promise<void> {
    this.chosen = folder;
    await this.file.write(JSON.stringify({ folder }));
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
