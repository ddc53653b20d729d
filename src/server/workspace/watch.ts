/**
 * `serve --watch` (docs/workspace.md "Changing a workspace while it runs"): the workspace file is read
 * again on every save. A file that does not parse or resolve keeps the running workspace and says why;
 * a change that loses or refuses stored data is previewed and not applied (unless
 * `--allow-destructive`, for what migrations can do); anything else is applied at once through the one
 * `apply` callback: in place, without a restart (apply-workspace.ts), so connections, sign-ins and
 * stream subscriptions stay. A save of a controllers or hooks module the workspace names is handled
 * the same way: the changed module is imported as a new instance. If the apply fails, the server keeps
 * the workspace it runs: a bad edit never leaves it down.
 */
import { watch, type FSWatcher } from 'node:fs';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openReader } from '../db/connection.ts';
import { WorkspaceError } from './errors.ts';
import { formatPreview, previewMigration, type MigrationPreview } from './migration-preview.ts';
import { loadWorkspace } from './resolve.ts';
import type { Workspace } from './types.ts';
import type { HeldPreview, WatchStatus } from './watch-status.ts';
import { workspaceDigest } from './workspace-digest.ts';

export interface WatchOptions {
  file: string;
  dataDir: string;
  allowDestructive: boolean;
  /** The workspace running now. */
  current: Workspace;
  /**
   * Applies this workspace to the running server (cli.ts: in place, or by a restart for what cannot
   * be applied in place); throws when it cannot, and then the server still runs the previous one.
   * The one entry point for applying a workspace: the watcher and the console's Apply both call it.
   */
  apply(ws: Workspace): Promise<void>;
  out(line: string): void;
  err(line: string): void;
  /** Where the last save not applied is kept for the console (`/healthz`); none: the terminal only. */
  status?: WatchStatus;
  /**
   * Asked with the controllers and hooks modules a save would run, before it is applied: null to go on,
   * or the sentence why not (the running workspace stays). The desktop app asks its trust question
   * again here when a module changed (docs/workspace.md "In the desktop app").
   */
  mayRun?(codeFiles: string[]): Promise<string | null>;
  /** Quiet time after the last change before the file is read (editors write in several steps). */
  debounceMs?: number;
}

export interface WorkspaceWatch {
  close(): void;
  /** Settles when the change being handled (if any) is done: for tests. */
  idle(): Promise<void>;
}

export function watchWorkspace(options: WatchOptions): WorkspaceWatch {
  let current = options.current;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const name = basename(options.file);
  // The console (maybe on another machine) is told the file's name, never the folders of this one.
  const refuse = (error: string, preview: HeldPreview | null = null): void => options.status?.refused(error.split(options.file).join(name), preview);
  // The digest of the pending save the console applied (POST /workspace/apply): the next read of the
  // file applies it if the file still holds that workspace, and previews it again if not.
  let approved: string | null = null;
  options.status?.attach({
    apply: (digest) => {
      approved = digest;
      options.out('Applying the previewed workspace: approved in the console.');
      running = running.then(handle, handle);
    },
    cancel: () => options.out('The previewed workspace was cancelled in the console: the server keeps the one it runs until the next save.'),
  });
  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(handle, handle);
    }, options.debounceMs ?? 150);
  };
  // Folders, not files: editors that save by writing a new file and renaming it replace the inode.
  // The workspace file and the controllers and hooks modules it names are watched alike.
  const watchers = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  const watchFiles = (files: readonly string[]): void => {
    for (const { watcher } of watchers.values()) watcher.close();
    watchers.clear();
    for (const file of files) {
      const dir = dirname(file);
      let entry = watchers.get(dir);
      if (!entry) {
        const names = new Set<string>();
        entry = { names, watcher: watch(dir, (_event, file) => (file === null || names.has(file) ? changed() : undefined)) };
        watchers.set(dir, entry);
      }
      entry.names.add(basename(file));
    }
  };
  const filesOf = (ws: Workspace): string[] => [options.file, ...[...ws.apps.values()].flatMap((app) => [app.controllersPath, app.hooksPath].filter((p): p is string => p !== undefined))];
  watchFiles(filesOf(current));

  const handle = async (): Promise<void> => {
    if (!existsSync(options.file)) return;
    let next: Workspace;
    try {
      next = loadWorkspace(options.file);
    } catch (error) {
      if (!(error instanceof WorkspaceError)) throw error;
      options.err(`jql-console: the workspace was not applied; the server keeps the one it runs: ${error.message}`);
      refuse(`The workspace was not applied; the server keeps the one it runs: ${error.message}`);
      return;
    }
    const digest = workspaceDigest(next);
    const approvedNow = approved === digest;
    approved = null;
    const preview = previewOf(options.dataDir, current, next);
    if (preview.changes.length > 0) options.out(formatPreview(preview));
    const refused = preview.changes.some((c) => c.kind === 'refused');
    if (refused || (preview.losesData && !options.allowDestructive && !approvedNow)) {
      const why = refused
        ? 'the workspace was not applied: stored values do not fit it (REFUSED above). The server keeps the one it runs.'
        : 'the workspace was not applied: it would stop serving stored values (LOSES above). Apply it from the console, or start with --allow-destructive to apply such changes.';
      options.err(`jql-console: ${why}`);
      // Only a save that refuses nothing may be applied from the console (migrate.ts would refuse the rest).
      refuse(why.charAt(0).toUpperCase() + why.slice(1), { text: formatPreview(preview), changes: preview.changes, pendingDigest: refused ? null : digest });
      return;
    }
    const untrusted = options.mayRun ? await options.mayRun(filesOf(next).slice(1)) : null;
    if (untrusted !== null) {
      options.err(`jql-console: ${untrusted}`);
      refuse(untrusted);
      return;
    }
    // Cleared first: the applied workspace never shows the error of a save it replaces.
    options.status?.clear();
    try {
      await options.apply(next);
      current = next;
      watchFiles(filesOf(current));
      options.out(`Workspace applied from ${options.file}.`);
    } catch (error) {
      options.err(`jql-console: the workspace could not be applied (${(error as Error).message}); the server keeps the one it runs.`);
      refuse(`The workspace could not be applied (${(error as Error).message}); the server keeps the one it runs.`);
    }
  };

  return {
    close: () => {
      if (timer) clearTimeout(timer);
      for (const { watcher } of watchers.values()) watcher.close();
    },
    idle: () => running,
  };
}

function previewOf(dataDir: string, before: Workspace, after: Workspace): MigrationPreview {
  const database = join(dataDir, 'jql.sqlite');
  const db = openReader(database);
  try {
    return previewMigration(db, before, after);
  } finally {
    db.close();
  }
}
