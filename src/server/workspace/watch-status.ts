/**
 * What `serve --watch` tells the console through `/healthz` (docs/workspace.md "Changing a workspace
 * while it runs"): the last save that was NOT applied (its one-sentence error, and the migration
 * preview when there is one), until a good save clears it. One object outlives every restart of the
 * server: the watcher writes it, each new start's `/healthz` reads it.
 */
export interface WatchReport {
  /** Why the last save was not applied; null when the running workspace is the file's. */
  error: string | null;
  /** The migration preview of that save (formatPreview), when it had one. */
  preview: string | null;
}

export class WatchStatus {
  private report: WatchReport = { error: null, preview: null };

  /** A save that was not applied. */
  refused(error: string, preview: string | null = null): void {
    this.report = { error, preview };
  }

  /** A save that was applied (or the file is back to the running workspace). */
  clear(): void {
    this.report = { error: null, preview: null };
  }

  snapshot(): WatchReport {
    return { ...this.report };
  }
}
