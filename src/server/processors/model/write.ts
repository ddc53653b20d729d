/**
 * The write intents of the model processor: create, update, delete (docs/protocol.md "Model intents"). They run inside
 * the request's transaction (the dispatcher opens it), so a failure anywhere leaves no partial write.
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import { hashPassword } from '../../auth/password.ts';
import { revokeUserCredentials } from '../../auth/revocation.ts';
import { SYSTEM_USER_KEY } from '../../workspace/system-user.ts';
import type { ProcessorOutput, RequestContext, Scopes, UploadedFile } from '../../context.ts';
import { ErrorList, fail } from '../../errors.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { quote } from '../../query/paths.ts';
import { buildSelection, type Selection } from '../../query/selection.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { readOne } from './read.ts';
import { referencesToClear, reportClearedReferences } from './set-null.ts';
import { checkValues, resolveUploads, type CheckedValues } from './values.ts';

export async function create(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(model.permissions, 'create', ctx.user, model.key);
  const writable = { ...data };
  await ctx.state.hooks.run(ctx, model.key, 'before_create', { data: writable });
  const { checked, uploads, returned } = checkWrite(ctx, model, meta, writable, 'create');
  guardAdminFields(ctx, model, writable);
  await hashPasswords(checked);
  checkRefs(ctx, checked);
  for (const file of uploads.values()) ctx.state.files.attach(ctx, file);
  const columns = [...checked.columns.keys()];
  const sql =
    columns.length === 0
      ? `INSERT INTO ${quote(model.table)} DEFAULT VALUES`
      : `INSERT INTO ${quote(model.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  // Exact (db/exact-reads.ts): a number, or a bigint past 2^53, which Number() would make a neighbour's id.
  const id = runWrite(ctx, model, sql, [...checked.columns.values()]).lastInsertRowid as number;
  if (scopes) ensureInScope(ctx, model, id, scopes);
  return finish(ctx, model, returned, id, 'created');
}

export async function update(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(model.permissions, 'update', ctx.user, model.key);
  const id = findId(ctx, model, meta, scopes);
  const writable = { ...data };
  await ctx.state.hooks.run(ctx, model.key, 'before_update', { data: writable, record: { id } });
  const { checked, uploads, returned } = checkWrite(ctx, model, meta, writable, 'update');
  guardAdminFields(ctx, model, writable);
  await hashPasswords(checked);
  checkRefs(ctx, checked);
  for (const file of uploads.values()) ctx.state.files.attach(ctx, file);
  // The files this update replaces or clears, released once nothing names them.
  const fileColumns = [...model.fields.values()].filter((field) => field.type === 'file' && checked.columns.has(field.column)).map((field) => field.column);
  const replaced = ctx.state.files.heldBy(ctx.sql, model.table, id, fileColumns);
  if (checked.columns.size > 0) {
    const columns = [...checked.columns.keys()];
    const sql = `UPDATE ${quote(model.table)} SET ${columns.map((c) => `${quote(c)} = ?`).join(', ')} WHERE "id" = ?`;
    runWrite(ctx, model, sql, [...checked.columns.values(), id]);
  }
  ctx.state.files.release(ctx, replaced);
  userWritten(ctx, model, id, checked);
  // A row scope also bounds what an update may turn a row into.
  if (scopes) ensureInScope(ctx, model, id, scopes);
  return finish(ctx, model, returned, id, 'updated');
}

export async function remove(ctx: RequestContext, model: ModelDef, meta: ParsedMeta): Promise<ProcessorOutput> {
  const scopes = ctx.state.access.check(model.permissions, 'delete', ctx.user, model.key);
  const id = findId(ctx, model, meta, scopes);
  await ctx.state.hooks.run(ctx, model.key, 'before_delete', { record: { id } });
  const files = ctx.state.files.heldBy(ctx.sql, model.table, id);
  const cleared = referencesToClear(ctx, model, id);
  runWrite(ctx, model, `DELETE FROM ${quote(model.table)} WHERE "id" = ?`, [id]);
  userWritten(ctx, model, id, 'deleted');
  ctx.state.mutations.record(ctx.sql, { kind: 'deleted', namespace: model.key, schema: 'model', id });
  reportClearedReferences(ctx, cleared);
  ctx.state.files.release(ctx, files);
  await ctx.state.hooks.run(ctx, model.key, 'after_delete', { record: { id } });
  return { payload: { id }, message: `Deleted ${model.key} ${id}`, extras: {} };
}

/**
 * Everything a create or update is checked against before it writes: the file parts, the values and
 * the `return` selection. All their errors come back in one answer, each with its path.
 */
function checkWrite(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>, mode: 'create' | 'update') {
  const errors = new ErrorList();
  const uploads = errors.check(() => resolveUploads(model, meta.fileFieldMapping, ctx.files, data)) ?? new Map<string, UploadedFile>();
  const checked = errors.check(() => checkValues(model, data, mode, new Date().toISOString(), fileIds(uploads), ctx.state.ws.limits.maxValueBytes));
  const returned = errors.check(() => buildSelection(ctx.state.ws, model, meta.return ?? null, ['__meta__', 'return']));
  errors.throwIfAny();
  return { uploads, checked: checked as CheckedValues, returned: returned as Selection };
}

async function finish(ctx: RequestContext, model: ModelDef, selection: Selection, id: number, kind: 'created' | 'updated'): Promise<ProcessorOutput> {
  ctx.state.mutations.record(ctx.sql, { kind, namespace: model.key, schema: 'model', id });
  const record: JsonObject = readOne(ctx, model, { uniqueObject: { id } }, selection, null, ['__meta__', 'return']);
  await ctx.state.hooks.run(ctx, model.key, kind === 'created' ? 'after_create' : 'after_update', { record });
  return { payload: record, message: `${kind === 'created' ? 'Created' : 'Updated'} ${model.key} ${id}`, extras: {} };
}

function findId(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, scopes: Scopes): number {
  const idOnly = buildSelection(ctx.state.ws, model, { id: null }, []);
  return readOne(ctx, model, meta, idOnly, scopes).id as number;
}

function ensureInScope(ctx: RequestContext, model: ModelDef, id: number, scopes: NonNullable<Scopes>): void {
  const idOnly = buildSelection(ctx.state.ws, model, { id: null }, []);
  try {
    readOne(ctx, model, { uniqueObject: { id } }, idOnly, scopes);
  } catch {
    fail('forbidden', `This ${model.key} would fall outside the rows you may change`);
  }
}

/** Only an admin may set `roles` or `is_active` on users (docs/protocol.md "Permissions and row scopes"). */
function guardAdminFields(ctx: RequestContext, model: ModelDef, data: Record<string, JsonValue>): void {
  if (model.key !== 'system.User' || ctx.user?.roles.includes('admin')) return;
  for (const name of ['roles', 'is_active']) {
    if (Object.hasOwn(data, name)) fail('forbidden', `Only an admin may set ${name}`, { field: name, path: [name] });
  }
}

/**
 * A write to a user (docs/protocol.md "Authentication", "Streams"): a new password, a deactivation or a deletion revokes every
 * session and token issued to the user before it, in this transaction (a rollback revokes nothing);
 * any write may change the user's roles, so once it commits the user's open streams are checked again.
 */
function userWritten(ctx: RequestContext, model: ModelDef, id: number, change: CheckedValues | 'deleted'): void {
  if (model.key !== SYSTEM_USER_KEY) return;
  if (change === 'deleted' || revokesCredentials(model, change)) revokeUserCredentials(ctx.sql.untracked, id);
  ctx.state.identity.userChanged(id);
}

function revokesCredentials(model: ModelDef, checked: CheckedValues): boolean {
  for (const field of model.fields.values()) {
    if (field.password && (checked.passwords.has(field.column) || checked.columns.has(field.column))) return true;
  }
  const active = model.fields.get('is_active');
  return active !== undefined && checked.columns.get(active.column) === 0;
}

function fileIds(uploads: Map<string, UploadedFile>): Map<string, string> {
  return new Map([...uploads].map(([field, file]) => [field, file.id]));
}

export async function hashPasswords(checked: CheckedValues): Promise<void> {
  for (const [column, plain] of checked.passwords) checked.columns.set(column, await hashPassword(plain));
}

/**
 * A reference must name a row the caller may read: one their roles do not let them retrieve, or one
 * outside their row scope, answers as if it did not exist (docs/protocol.md "Permissions and row
 * scopes"), so a write is never an oracle for rows a read would hide, nor a way to attach a record to one.
 */
function checkRefs(ctx: RequestContext, checked: CheckedValues): void {
  for (const { field, id } of checked.refs) {
    const target = ctx.state.ws.models.get(field.to as string) as ModelDef;
    if (!readable(ctx, target, id)) {
      fail('validation_error', `${field.name}: no ${target.key} with id ${id}`, { field: field.name, path: [field.name] });
    }
  }
}

function readable(ctx: RequestContext, model: ModelDef, id: number): boolean {
  const access = ctx.state.access.allows(model.permissions, 'retrieve', ctx.user);
  if (!access.allowed) return false;
  if (access.scopes === null) return ctx.sql.get(`SELECT 1 AS found FROM ${quote(model.table)} WHERE "id" = ?`, [id]) !== undefined;
  try {
    readOne(ctx, model, { uniqueObject: { id } }, buildSelection(ctx.state.ws, model, { id: null }, []), access.scopes);
    return true;
  } catch {
    return false;
  }
}

/** Runs a write, turning SQLite constraint failures into coded errors. */
export function runWrite(ctx: RequestContext, model: ModelDef, sql: string, params: SqlParam[]): { lastInsertRowid: number | bigint } {
  try {
    return ctx.sql.run(sql, params);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      const column = /UNIQUE constraint failed: (.*)$/.exec((error as Error).message)?.[1]?.split(', ')[0]?.split('.').pop() ?? '';
      const field = [...model.fields.values()].find((f) => f.column === column);
      fail('conflict', field ? `A ${model.key} with this ${field.name} already exists` : `A unique constraint of ${model.key} would be violated`, field ? { field: field.name, path: [field.name] } : {});
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      fail('conflict', `This ${model.key} is still referenced by other records`);
    }
    throw error;
  }
}
