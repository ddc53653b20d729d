/**
 * `file:save` (a response body to a file the user picks; its extension follows the content, see
 * save-name.ts) and `shell:open-external` (a web page, opened right after the user's click or after
 * main asked, see external-open.ts).
 */
import type { SaveFileResult } from '../../shared/bridge.ts';
import { savedFileName } from '../save-name.ts';
import type { Handlers } from './register.ts';

export interface FileDeps {
  /** Shows the save dialog with `name` and a filter for `extension`; resolves with the chosen path or null when cancelled. */
  chooseSavePath(name: string, extension: string): Promise<string | null>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Opens a web page in the system browser if the user clicked for it or agrees; true when opened. */
  openExternal(url: string): Promise<boolean>;
}

export function fileHandlers(deps: FileDeps): Pick<Handlers, 'file:save' | 'shell:open-external'> {
  return {
    'file:save': async ({ suggestedName, data }): Promise<SaveFileResult> => {
      const { name, extension } = await savedFileName(suggestedName, data);
      const path = await deps.chooseSavePath(name, extension);
      if (!path) return { saved: false };
      await deps.writeFile(path, data);
      return { saved: true, path };
    },
    'shell:open-external': (url) => deps.openExternal(url),
  };
}
