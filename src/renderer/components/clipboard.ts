/** Copy to the clipboard and say so; a refusal (no permission, insecure page) is reported, not thrown. */
import type { Toasts } from '../state/toasts.ts';

export async function copyToClipboard(text: string, what: string, toasts: Toasts): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toasts.show(`Copied ${what}`);
  } catch {
    toasts.show(`Could not copy ${what}: the clipboard is not available here`, 'error');
  }
}
