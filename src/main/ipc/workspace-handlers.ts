/** `workspace:*`: the same actions as File > Open Workspace and Open Recent, for buttons in the page. */
import type { Handlers } from './register.ts';

export function workspaceHandlers(deps: {
  openWorkspaceDialog(): Promise<void>;
  openWorkspace(path: string): Promise<void>;
  recent(): string[];
}): Pick<Handlers, 'workspace:open' | 'workspace:open-recent'> {
  return {
    'workspace:open': () => deps.openWorkspaceDialog(),
    // Only a path main itself put in the recent list: the page cannot make the server load any file.
    'workspace:open-recent': async (path) => {
      if (!deps.recent().includes(path)) throw new Error('That workspace is not in the recent list.');
      await deps.openWorkspace(path);
    },
  };
}
