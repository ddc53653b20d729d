/**
 * What `serve --watch` tells the console through `/healthz` (docs/workspace.md "Changing a workspace
 * while it runs"): the last save that was NOT applied (its one-sentence error, and the migration
 * preview when there is one), until a good save clears it. One object outlives every restart of the
 * server: the watcher writes it, each new start's `/healthz` reads it.
 *
 * A save held back only because it would stop serving stored values is *pending*: the console may
 * apply it (`POST /workspace/apply`) or cancel it (`POST /workspace/cancel`), naming it by the digest
 * shown here, so that what is applied is always the workspace the person saw previewed.
 */
import type { PreviewChange } from './migration-preview.ts';

export interface WatchReport {
  /** Why the last save was not applied; null when the running workspace is the file's. */
  error: string | null;
  /** The migration preview of that save (formatPreview), when it had one. */
  preview: string | null;
  /** The preview's changes (each with the rows it touches and a sample of their values), when it had one. */
  changes: PreviewChange[] | null;
  /** The digest (workspaceDigest) of the save the console may apply or cancel; null when none may be. */
  pendingDigest: string | null;
}

/** What the watcher does when the console applies or cancels the pending save. */
export interface PendingActions {
  apply(digest: string): void;
  cancel(digest: string): void;
}

/** The save a preview was shown for, when it may be applied. */
export interface HeldPreview {
  text: string;
  changes: PreviewChange[];
  /** Set when the save may be applied from the console (it loses values, but refuses none). */
  pendingDigest: string | null;
}

/** `done`: handed to the watcher; `nothing`: no save is pending; `stale`: another save is (or none). */
export type PendingAnswer = 'done' | 'nothing' | 'stale';

const EMPTY: WatchReport = { error: null, preview: null, changes: null, pendingDigest: null };

export class WatchStatus {
  private report: WatchReport = EMPTY;
  private actions: PendingActions | null = null;

  /** The watcher that applies a pending save (one per status). */
  attach(actions: PendingActions): void {
    this.actions = actions;
  }

  /** A save that was not applied. */
  refused(error: string, preview: HeldPreview | null = null): void {
    this.report = { error, preview: preview?.text ?? null, changes: preview?.changes ?? null, pendingDigest: preview?.pendingDigest ?? null };
  }

  /** A save that was applied (or the file is back to the running workspace). */
  clear(): void {
    this.report = EMPTY;
  }

  /** The console applies the pending save named by `digest`. */
  apply(digest: string): PendingAnswer {
    return this.settle(digest, (actions) => actions.apply(digest));
  }

  /** The console keeps the running workspace: the pending save is forgotten until the next one. */
  cancel(digest: string): PendingAnswer {
    return this.settle(digest, (actions) => actions.cancel(digest));
  }

  private settle(digest: string, act: (actions: PendingActions) => void): PendingAnswer {
    const pending = this.report.pendingDigest;
    if (pending === null || this.actions === null) return 'nothing';
    if (pending !== digest) return 'stale';
    // Cleared before the watcher acts: a second click finds nothing pending, never a second apply.
    this.report = EMPTY;
    act(this.actions);
    return 'done';
  }

  snapshot(): WatchReport {
    return { ...this.report };
  }
}
