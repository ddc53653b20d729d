/**
 * What "Approve as snapshot" writes for an answer's raw text (shared/collections/snapshot.ts): read
 * with the reader that keeps numbers a double cannot hold as their digits (big-number.ts), so a
 * 64-bit id is approved as the server sent it, not as its rounding.
 */
import { snapshotOf, type Redaction, type SnapshotOptions } from '../../shared/collections/snapshot.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';

export function approvedSnapshot(text: string, options: SnapshotOptions, redactions: readonly Redaction[]): JsonValue {
  let body: unknown;
  try {
    body = parseJsonKeepingNumbers(text);
  } catch {
    throw new Error('The answer is not JSON, so it cannot be a snapshot.');
  }
  return snapshotOf(body, options, redactions);
}
