/**
 * The size bound of one stored value (docs/protocol.md "Errors" `limits.maxValueBytes`), measured as the
 * value weighs once serialized in an answer: a `string` or `text` value as the UTF-8 bytes of its JSON
 * text without the quotes (escapes included: U+0001 is 6 bytes, `"` is 2), a `json` value (or a NoSQL
 * document) as its JSON text. Measured that way, a page of stored records has a bound on what it weighs
 * sent (query/answer-budget.ts rowBytesAtMost) that the answer budget can rely on.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { jsonStringBytes } from './json-bytes.ts';

/** UTF-8 bytes of a value once serialized: a string's JSON text without its quotes, anything else as JSON text. */
export function storedBytes(value: JsonValue): number {
  if (typeof value === 'string') return jsonStringBytes(value) - 2;
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Why a value is too large to store, or null when it fits. */
export function sizeProblem(value: JsonValue, maxBytes: number): string | null {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return null;
  // Each UTF-16 unit weighs at most 6 bytes serialized (`\u0001`): most values are decided without measuring.
  if (typeof value === 'string' && value.length * 6 <= maxBytes) return null;
  const bytes = storedBytes(value);
  return bytes > maxBytes ? `is ${bytes} bytes once serialized as JSON; a value may hold at most ${maxBytes} bytes (limits.maxValueBytes)` : null;
}
