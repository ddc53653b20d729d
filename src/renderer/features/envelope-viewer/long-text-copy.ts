/**
 * Copying a long text (response/long-text.ts) without building it as one string on the window's
 * thread: the clipboard is handed a Blob, made a piece at a time, which the browser reads itself.
 * Where the clipboard takes no Blob, the copy fails and says where the exact text is instead.
 */
import type { LongText } from '../../response/long-text.ts';

export async function copyLongText(long: LongText): Promise<void> {
  if (typeof ClipboardItem !== 'function' || typeof navigator.clipboard?.write !== 'function') throw new Error('the clipboard takes no text this long here');
  // The item takes the Blob's promise, so the copy keeps the click's permission while the Blob is made.
  await navigator.clipboard.write([new ClipboardItem({ 'text/plain': long.blob('text/plain') })]);
}

/** What to say when a long text could not be copied: where the exact text is. */
export const LONG_COPY_FAILED = 'Could not copy: the clipboard is not available here. The Raw view holds the exact answer (and Save writes it to a file).';

/** A value that holds a long text is not copied as JSON: its placeholders are not its text. */
export const TOO_LONG_TO_COPY = 'Not copied: it holds a string too long to copy with the rest. Copy that cell alone, or take the exact answer from the Raw view (or Save).';
