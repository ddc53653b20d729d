/**
 * A workspace's controller and hook modules run in main with full Node access, so main asks once per
 * workspace before it runs them (issue 21.8; VS Code's Workspace Trust is the anchor), naming the
 * files that will run. The answer is kept under userData with the files it covered and the SHA-256 of
 * each one's content: a workspace that later names a file the user was not shown, or whose module
 * changed since the answer (a save the watcher is about to run, issue 33), is asked about again. A
 * workspace that runs no code of its own (the demo is the app's own) opens without a question.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TextFile } from './text-file.ts';

export interface TrustDeps {
  file: TextFile;
  /** The JavaScript files the workspace runs (server/index.ts workspaceCodeFiles); throws for a workspace that cannot be read. */
  codeFiles(workspace: string): string[] | Promise<string[]>;
  /** Main's own dialog: may these files run? */
  ask(workspace: string, files: string[]): Promise<boolean>;
  /** What the answer covers of a file: its content's digest (default: SHA-256 of the bytes; '' when unreadable). */
  digest?(file: string): Promise<string>;
}

/** Workspace -> module file -> the digest of the content the user said yes to. */
type Trusted = Record<string, Record<string, string>>;

async function contentDigest(file: string): Promise<string> {
  try {
    return createHash('sha256').update(await readFile(file)).digest('hex');
  } catch {
    return '';
  }
}

export class WorkspaceTrust {
  private trusted: Trusted | null = null;
  private readonly deps: TrustDeps;

  constructor(deps: TrustDeps) {
    this.deps = deps;
  }

  /**
   * True when the workspace may run: no code, already trusted for these files, or the user said yes
   * now. A workspace that cannot be read is let through: the server's start reports why it fails.
   */
  async allows(workspace: string): Promise<boolean> {
    let files: string[];
    try {
      files = await this.deps.codeFiles(resolve(workspace));
    } catch {
      return true;
    }
    return this.allowsFiles(workspace, files);
  }

  /** True when these modules, as they are on disk now, may run for the workspace (asked when not known). */
  async allowsFiles(workspace: string, codeFiles: readonly string[]): Promise<boolean> {
    const path = resolve(workspace);
    const files = [...new Set(codeFiles)].sort();
    if (files.length === 0) return true;
    const digest = this.deps.digest ?? contentDigest;
    const now = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await digest(f)] as const)));
    const trusted = await this.load();
    const known = trusted[path] ?? {};
    if (files.every((f) => known[f] !== undefined && known[f] === now[f])) return true;
    if (!(await this.deps.ask(path, files))) return false;
    trusted[path] = now;
    await this.deps.file.write(JSON.stringify(trusted));
    return true;
  }

  private async load(): Promise<Trusted> {
    if (this.trusted) return this.trusted;
    const trusted: Trusted = {};
    try {
      const parsed = JSON.parse((await this.deps.file.read()) ?? '{}') as Record<string, unknown>;
      for (const [path, files] of Object.entries(parsed)) {
        // An answer kept without digests (an older version) covers no content: asked again once.
        if (typeof files === 'object' && files !== null && !Array.isArray(files)) {
          trusted[path] = Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string'));
        }
      }
    } catch {
      // Unreadable: every workspace is asked about again.
    }
    this.trusted ??= trusted;
    return this.trusted;
  }
}
