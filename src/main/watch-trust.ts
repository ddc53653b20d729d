/**
 * The desktop app's gate before its watcher applies a save (docs/workspace.md "In the desktop app"):
 * the controllers and hooks modules the save would run must be trusted as they are on disk now, so a
 * changed module is asked about again with the same question as at open. A no keeps the running
 * workspace, and the banner says why.
 */
import type { WorkspaceTrust } from './workspace-trust.ts';

export const NOT_TRUSTED = 'Not applied: the controller changed and was not trusted. The app keeps the workspace it runs.';

export function trustGate(trust: Pick<WorkspaceTrust, 'allowsFiles'>, workspace: string): (codeFiles: string[]) => Promise<string | null> {
  return async (codeFiles) => ((await trust.allowsFiles(workspace, codeFiles)) ? null : NOT_TRUSTED);
}
