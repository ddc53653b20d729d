/**
 * The workspace the embedded server serves (null: the demo) and the recently opened ones, for
 * File > Open Recent. Kept in a small file under userData so the next start opens the same one.
 */
import type { TextFile } from './text-file.ts';

export const MAX_RECENT = 8;

export interface WorkspaceHistory {
  current: string | null;
  recent: string[];
}

export function pushRecent(recent: readonly string[], path: string, max = MAX_RECENT): string[] {
  return [path, ...recent.filter((p) => p !== path)].slice(0, max);
}

export class RecentWorkspaces {
  private state: WorkspaceHistory = { current: null, recent: [] };

  private file: TextFile;

  constructor(file: TextFile) {
    this.file = file;
  }

  get current(): string | null {
    return this.state.current;
  }

  get recent(): string[] {
    return [...this.state.recent];
  }

  async load(): Promise<void> {
    try {
      const parsed = JSON.parse((await this.file.read()) ?? '{}') as Partial<WorkspaceHistory>;
      const recent = Array.isArray(parsed.recent) ? parsed.recent.filter((p): p is string => typeof p === 'string').slice(0, MAX_RECENT) : [];
      const current = typeof parsed.current === 'string' ? parsed.current : null;
      this.state = { current, recent };
    } catch {
      this.state = { current: null, recent: [] };
    }
  }

  /** Opening a workspace makes it current and the first recent entry; null goes back to the demo. */
  async open(path: string | null): Promise<void> {
    this.state = { current: path, recent: path ? pushRecent(this.state.recent, path) : this.state.recent };
    await this.file.write(JSON.stringify(this.state));
  }

  /** A workspace that failed to open leaves the list (its file may be gone) and is no longer current. */
  async forget(path: string): Promise<void> {
    this.state = { current: this.state.current === path ? null : this.state.current, recent: this.state.recent.filter((p) => p !== path) };
    await this.file.write(JSON.stringify(this.state));
  }

  async clear(): Promise<void> {
    this.state = { ...this.state, recent: [] };
    await this.file.write(JSON.stringify(this.state));
  }
}
