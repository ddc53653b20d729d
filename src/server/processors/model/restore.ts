/**
 * Writes a record copied from another server (`jql-console clone`) under its own id: the create
 * path's value checks and codec (checkValues, toStored, password hashing), the file rows and the event
 * log (the cache learns of the write from its change triggers), but no hooks and no permission check (the copy belongs to whoever runs the
 * server, as the seed does) and the server-set values (`auto` timestamps) taken from the source.
 * References are checked when the transaction commits (`deferReferenceChecks`), so records may
 * arrive in any order, cycles included.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { RequestContext, UploadedFile } from '../../context.ts';
import type { SqlRunner } from '../../db/sql-session.ts';
import { JqlFailure, jqlError } from '../../errors.ts';
import { quote } from '../../query/paths.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { toStored } from '../../workspace/field-codec.ts';
import { checkValues, problemWith } from './values.ts';
import { hashPasswords, runWrite } from './write.ts';

/** Foreign keys of the open transaction are checked at COMMIT instead of at each INSERT. */
export function deferReferenceChecks(sql: SqlRunner): void {
  sql.run('PRAGMA defer_foreign_keys = ON');
}

/**
 * `data` holds every field to store except file fields, `auto` fields included; `files` gives the
 * stored file of each file field that has one. Throws a JqlFailure (`validation_error`, `conflict`)
 * when a value does not fit the model here.
 */
export async function restoreRecord(ctx: RequestContext, model: ModelDef, id: number, data: Record<string, JsonValue>, files: ReadonlyMap<string, UploadedFile>): Promise<void> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new JqlFailure([jqlError('validation_error', `${model.key}: id ${JSON.stringify(id)} is not a positive integer`)]);
  const given: Record<string, JsonValue> = {};
  const server: Array<[string, JsonValue]> = [];
  for (const [name, value] of Object.entries(data)) {
    if (model.fields.get(name)?.auto) server.push([name, value]);
    else given[name] = value;
  }
  const checked = checkValues(model, given, 'create', new Date().toISOString(), new Map([...files].map(([field, file]) => [field, file.id])));
  const errors = [];
  for (const [name, value] of server) {
    const field = model.fields.get(name)!;
    const problem = problemWith(field, value);
    if (problem) errors.push(jqlError('validation_error', `${name} ${problem}`, { field: name, path: [name] }));
    else checked.columns.set(field.column, toStored(field.type, value));
  }
  if (errors.length > 0) throw new JqlFailure(errors);
  await hashPasswords(checked);
  for (const file of files.values()) ctx.state.files.attach(ctx, file);
  const columns = ['id', ...checked.columns.keys()];
  runWrite(ctx, model, `INSERT INTO ${quote(model.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, [id, ...checked.columns.values()]);
  // The retrieve cache sees the insert by itself (cache/change-capture.ts).
  ctx.state.mutations.record(ctx.sql, { kind: 'created', namespace: model.key, schema: 'model', id });
}
