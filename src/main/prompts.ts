/**
 * The questions main asks in its own dialogs, where a script in the page cannot answer for the user:
 * may the console reach an address on this computer's network (connections/reach-policy.ts), run a
 * workspace's code (workspace-trust.ts), open a page the user did not click for (external-open.ts).
 * Text that came from elsewhere is shown without control or format characters.
 */
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { plainLabel } from '../shared/plain-label.ts';

type Parent = () => BrowserWindow | null;

async function yes(parent: Parent, options: MessageBoxOptions): Promise<boolean> {
  const window = parent();
  const box: MessageBoxOptions = { type: 'warning', defaultId: 1, cancelId: 1, noLink: true, ...options };
  const { response } = window ? await dialog.showMessageBox(window, box) : await dialog.showMessageBox(box);
  return response === 0;
}

export function askReach(parent: Parent, origin: string, addresses: string[]): Promise<boolean> {
  return yes(parent, {
    buttons: ['Allow', 'Cancel'],
    message: `Allow the console to reach ${plainLabel(origin)}?`,
    detail:
      `${plainLabel(origin)} is an address on this computer or its local network (${addresses.map(plainLabel).join(', ') || 'unresolved'}). ` +
      'A connection you set up yourself may point there; a server answer or a script must not. Allow it only if you added this connection.',
  });
}

export function askTrust(parent: Parent, workspace: string, files: string[]): Promise<boolean> {
  return yes(parent, {
    buttons: ['Trust and Open', 'Cancel'],
    message: 'Run the code of this workspace?',
    detail: `${plainLabel(workspace)} runs these files inside the console, with full access to your computer:\n\n${files.map(plainLabel).join('\n')}\n\nOpen it only if you trust where it came from. The console asks again if it names other files, or when one of them changes.`,
  });
}

export function askOpenExternal(parent: Parent, url: string): Promise<boolean> {
  return yes(parent, {
    buttons: ['Open in Browser', 'Cancel'],
    message: 'Open this address in your browser?',
    detail: `${plainLabel(url)}\n\nThe console asked to open it without a click of yours.`,
  });
}
