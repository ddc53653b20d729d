/**
 * Every IPC message's sender is checked (Electron security checklist #17): it must come from the
 * console's own page, in its top frame. A page that got loaded some other way (it cannot, given the
 * navigation guards, but defence in depth) gets no answer.
 */
import type { AppUrlMatcher } from '../app-url.ts';

/** The parts of IpcMainInvokeEvent the check reads. */
export interface SenderInfo {
  senderFrame: { url: string; parent: unknown } | null;
}

export function isTrustedSender(event: SenderInfo, isAppUrl: AppUrlMatcher): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url);
}
