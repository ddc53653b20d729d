// The write intents of a collection: create, update (shallow merge) and delete (docs/protocol.md "Processors"). Each
// runs in a savepoint of its own, so a row-scope refusal after the write leaves nothing behind even
// when the dispatcher has not opened a transaction; inside an outer one it simply nests.
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import { fail, JqlFailure, jqlError } from '../../errors.ts';
import { parseJsonExact } from '../../exact-integers.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { defineKey } from '../../query/normalize.ts';
import { sizeProblem } from '../../query/value-size.ts';
import type { CollectionDef } from '../../workspace/types.ts';
import { RESERVED_KEYS } from './paths.ts';
import { inScope, readOne } from './read.ts';
import { selectionOf, toRecord } from './records.ts';
import { DOCUMENTS_TABLE } from './tables.ts';

export function create(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(collection.permissions, 'create', ctx.user, collection.key);
  checkDocument(ctx, data);
  return ctx.state.db.transaction(async () => {
    const now = new Date().toISOString();
    const body = JSON.stringify(data);
    const id = Number(ctx.sql.run(`INSERT INTO ${DOCUMENTS_TABLE} (collection, body, created_at, updated_at) VALUES (?, ?, ?, ?)`, [collection.key, body, now, now]).lastInsertRowid);
    ensureInScope(ctx, collection, id, scopes);
    return finish(ctx, collection, meta, { id, body, created_at: now, updated_at: now }, 'created');
  });
}

export function update(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(collection.permissions, 'update', ctx.user, collection.key);
  checkDocument(ctx, data);
  return ctx.state.db.transaction(async () => {
    const row = readOne(ctx, collection, meta, scopes);
    const document = parseJsonExact(row.body as string) as JsonObject;
    // Shallow merge: a given key replaces the stored value whole (null included); others stay.
    for (const [key, value] of Object.entries(data)) defineKey(document, key, value);
    const id = row.id as number;
    const now = new Date().toISOString();
    const body = JSON.stringify(document);
    // Each key fitted on its own; the merged document must fit too.
    const bytes = Buffer.byteLength(body, 'utf8');
    const max = ctx.state.ws.limits.maxValueBytes;
    if (bytes > max) fail('validation_error', `The updated document would be ${bytes} bytes; a document may hold at most ${max} bytes (limits.maxValueBytes)`);
    ctx.sql.run(`UPDATE ${DOCUMENTS_TABLE} SET body = ?, updated_at = ? WHERE id = ?`, [body, now, id]);
    // A row scope also bounds what an update may turn a document into.
    ensureInScope(ctx, collection, id, scopes);
    return finish(ctx, collection, meta, { id, body, created_at: row.created_at as string, updated_at: now }, 'updated');
  });
}

export function remove(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(collection.permissions, 'delete', ctx.user, collection.key);
  return ctx.state.db.transaction(async () => {
    const id = readOne(ctx, collection, meta, scopes).id as number;
    ctx.sql.run(`DELETE FROM ${DOCUMENTS_TABLE} WHERE id = ?`, [id]);
    ctx.state.mutations.record(ctx.sql, { kind: 'deleted', namespace: collection.key, schema: 'nosql', id });
    return { payload: { id }, message: `Deleted ${collection.key} ${id}`, extras: {} };
  });
}

function finish(
  ctx: RequestContext,
  collection: CollectionDef,
  meta: ParsedMeta,
  row: { id: number; body: string; created_at: string; updated_at: string },
  kind: 'created' | 'updated',
): ProcessorOutput {
  ctx.state.mutations.record(ctx.sql, { kind, namespace: collection.key, schema: 'nosql', id: row.id });
  // Built from what was just written: no read-back statement is needed.
  const record = toRecord(row, selectionOf(meta.return, undefined, ['__meta__', 'return']));
  return { payload: record, message: `${kind === 'created' ? 'Created' : 'Updated'} ${collection.key} ${row.id}`, extras: {} };
}

function ensureInScope(ctx: RequestContext, collection: CollectionDef, id: number, scopes: Scopes): void {
  if (scopes && !inScope(ctx, collection, id, scopes)) fail('forbidden', `This ${collection.key} would fall outside the documents you may change`);
}

/**
 * The server assigns `id` and the timestamps, and a document is a `json` value bounded by
 * `limits.maxValueBytes` (docs/protocol.md "Errors"): one error per offending key, or one for the whole document.
 */
function checkDocument(ctx: RequestContext, data: Record<string, JsonValue>): void {
  const errors = RESERVED_KEYS.filter((key) => Object.hasOwn(data, key)).map((key) =>
    jqlError('validation_error', `${key}: assigned by the server, it cannot be written`, { field: key, path: [key] }),
  );
  const max = ctx.state.ws.limits.maxValueBytes;
  const oversized = Object.entries(data).flatMap(([key, value]) => {
    const problem = sizeProblem(value, max);
    return problem ? [jqlError('validation_error', `${key} ${problem}`, { field: key, path: [key] })] : [];
  });
  errors.push(...oversized);
  if (oversized.length === 0) {
    const problem = sizeProblem(data, max);
    if (problem) errors.push(jqlError('validation_error', `The document ${problem}`));
  }
  if (errors.length > 0) throw new JqlFailure(errors);
}
