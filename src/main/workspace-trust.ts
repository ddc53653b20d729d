/**
 * A workspace's controller and hook modules run in main with full Node access, so main asks once per
 * workspace before it runs them (issue 21.8; VS Code's Workspace Trust is the anchor), naming the
 * files that will run. The answer is kept under userData with the files it covered: a workspace
 * that later names a file the user was not shown is asked about again. A workspace that runs no
 * code of its own (the demo is the app's own) opens without a question.
 */
import { resolve } from 'node:path';
import type { TextFile } from './text-file.ts';

export interface TrustDeps {
  file: TextFile;
  /** The JavaScript files the workspace runs (server/index.ts workspaceCodeFiles); throws for a workspace that cannot be read. */
  codeFiles(workspace: string): string[] | Promise<string[]>;
  /** Main's own dialog: may these files run? */
  ask(workspace: string, files: string[]): Promise<boolean>;
}

type Trusted = Record<string, string[]>;

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
    const path = resolve(workspace);
    let files: string[];
    try {
      files = [...new Set(await this.deps.codeFiles(path))].sort();
    } catch {
      return true;
    }
    if (files.length === 0) return true;
    const trusted = await this.load();
    const known = new Set(trusted[path] ?? []);
    if (files.every((f) => known.has(f))) return true;
    if (!(await this.deps.ask(path, files))) return false;
    trusted[path] = files;
    await this.deps.file.write(JSON.stringify(trusted));
    return true;
  }

  private async load(): Promise<Trusted> {
    if (this.trusted) return this.trusted;
    const trusted: Trusted = {};
    try {
      const parsed = JSON.parse((await this.deps.file.read()) ?? '{}') as Record<string, unknown>;
      for (const [path, files] of Object.entries(parsed)) {
        if (Array.isArray(files)) trusted[path] = files.filter((f): f is string => typeof f === 'string');
      }
    } catch {
      // Unreadable: every workspace is asked about again.
    }
    this.trusted ??= trusted;
    return this.trusted;
  }
}
