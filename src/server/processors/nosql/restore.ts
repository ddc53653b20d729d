// Writes a document copied from another server (`jql-console clone`) under its own id and
// timestamps, with its event, as create does, but without a permission check: the copy belongs to
// whoever runs the server. The document is stored as JSON.stringify writes it, like every other.
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { RequestContext } from '../../context.ts';
import { JqlFailure, jqlError } from '../../errors.ts';
import { defineKey } from '../../query/normalize.ts';
import type { CollectionDef } from '../../workspace/types.ts';
import { isReservedKey } from './paths.ts';
import { DOCUMENTS_TABLE } from './tables.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `record` is the document as a retrieve answers it: `id`, the keys, `created_at`, `updated_at`. */
export function restoreDocument(ctx: RequestContext, collection: CollectionDef, record: JsonObject): void {
  const { id, created_at: createdAt, updated_at: updatedAt } = record;
  const problems: string[] = [];
  if (!Number.isSafeInteger(id) || (id as number) <= 0) problems.push(`id ${JSON.stringify(id)} is not a positive integer`);
  for (const [key, value] of [['created_at', createdAt], ['updated_at', updatedAt]] as const) {
    if (typeof value !== 'string' || !ISO_TIME.test(value) || Number.isNaN(Date.parse(value))) problems.push(`${key} ${JSON.stringify(value)} is not an ISO-8601 time`);
  }
  if (problems.length > 0) throw new JqlFailure(problems.map((problem) => jqlError('validation_error', `${collection.key}: ${problem}`)));
  const document: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(record)) if (!isReservedKey(key)) defineKey(document, key, value);
  try {
    ctx.sql.run(`INSERT INTO ${DOCUMENTS_TABLE} (id, collection, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, [
      id as number,
      collection.key,
      JSON.stringify(document),
      new Date(createdAt as string).toISOString(),
      new Date(updatedAt as string).toISOString(),
    ]);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new JqlFailure([jqlError('conflict', `${collection.key}: another document already has id ${id as number}`)]);
    throw error;
  }
  // The retrieve cache sees the insert by itself (cache/change-capture.ts).
  ctx.state.mutations.record(ctx.sql, { kind: 'created', namespace: collection.key, schema: 'nosql', id: id as number });
}
