/**
 * The size bound of one stored value (docs/protocol.md "Errors" `limits.maxValueBytes`): a `string` or `text`
 * value is measured as its UTF-8 bytes, a `json` value (or a NoSQL document) as its JSON text. The
 * bound keeps one record small enough that a page of them stays within an answer's limit.
 */
import type { JsonValue } from '../../shared/protocol.ts';

/** UTF-8 bytes of a value as stored: strings as they are, anything else as JSON text. */
export function storedBytes(value: JsonValue): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Why a value is too large to store, or null when it fits. */
export function sizeProblem(value: JsonValue, maxBytes: number): string | null {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return null;
  // Each UTF-16 unit is at most 3 UTF-8 bytes: most values are decided without measuring.
  if (typeof value === 'string' && value.length * 3 <= maxBytes) return null;
  const bytes = storedBytes(value);
  return bytes > maxBytes ? `is ${bytes} bytes; a value may hold at most ${maxBytes} bytes (limits.maxValueBytes)` : null;
}
