/**
 * Checks what the renderer sends on the `documents:*` channels before it reaches SQLite: IPC input is
 * untrusted, so keys follow one pattern and sizes are bounded.
 */
import { DOCUMENT_KEY_PATTERN, type DocumentChange } from '../../shared/bridge.ts';

export class DocumentInputError extends Error {
  override readonly name = 'DocumentInputError';
}

/** One document (a tab, the saved collections) may hold this much text. */
export const MAX_DOCUMENT_CHARS = 128 * 1024 * 1024;
export const MAX_CHANGES = 1000;

export function parseDocumentKey(value: unknown): string {
  if (typeof value !== 'string' || !DOCUMENT_KEY_PATTERN.test(value)) throw new DocumentInputError('A document key is 1 to 200 letters, digits or : . _ -');
  return value;
}

export function parseDocumentChanges(value: unknown): DocumentChange[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_CHANGES) throw new DocumentInputError(`A document write holds 1 to ${MAX_CHANGES} changes.`);
  return value.map((change: unknown) => {
    if (typeof change !== 'object' || change === null) throw new DocumentInputError('A document change is {key, value}.');
    const c = change as Record<string, unknown>;
    if (Object.keys(c).some((k) => k !== 'key' && k !== 'value')) throw new DocumentInputError('A document change is {key, value}.');
    if (c.value !== null && typeof c.value !== 'string') throw new DocumentInputError('A document value is text, or null to delete it.');
    if (typeof c.value === 'string' && c.value.length > MAX_DOCUMENT_CHARS) throw new DocumentInputError(`A document is longer than ${MAX_DOCUMENT_CHARS} characters.`);
    return { key: parseDocumentKey(c.key), value: c.value };
  });
}
