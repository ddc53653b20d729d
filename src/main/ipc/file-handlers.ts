/** `file:save` (a response body to a file the user picks) and `shell:open-external` (checked links). */
import type { SaveFileResult } from '../../shared/bridge.ts';
import { isSafeExternalUrl } from '../app-url.ts';
import type { Handlers } from './register.ts';
import { safeFileName } from './validators.ts';

export interface FileDeps {
  /** Shows the save dialog; resolves with the chosen path or null when cancelled. */
  chooseSavePath(suggestedName: string): Promise<string | null>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  openExternal(url: string): Promise<void>;
}

export function fileHandlers(deps: FileDeps): Pick<Handlers, 'file:save' | 'shell:open-external'> {
  return {
    'file:save': async ({ suggestedName, data }): Promise<SaveFileResult> => {
      const path = await deps.chooseSavePath(safeFileName(suggestedName));
      if (!path) return { saved: false };
      await deps.writeFile(path, data);
      return { saved: true, path };
    },
    'shell:open-external': async (url) => {
      if (!isSafeExternalUrl(url)) return false;
      await deps.openExternal(url);
      return true;
    },
  };
}
