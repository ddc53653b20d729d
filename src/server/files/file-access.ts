/**
 * Who may fetch a stored file (docs/protocol.md "File URLs"). A valid signature opens any file: the server
 * signs only the URLs of `protected` fields, for the callers who could read them. Without one, a file
 * is readable through the records that hold it in an unprotected field, with the caller's normal
 * read permission and row scope on such a record: 401 anonymous, 403 without the role, 404 outside
 * the row scope or unknown. A file held only by protected fields needs its signature: 403.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { AuthUser, RequestContext, ServerState } from '../context.ts';
import { SqlSession, untracked, type SqlRunner } from '../db/sql-session.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { quote } from '../query/paths.ts';
import type { FieldDef, ModelDef } from '../workspace/types.ts';
import { findFileRow, type FileRow } from './file-table.ts';
import { checkSignature } from './signed-url.ts';

export interface FileHolder {
  model: ModelDef;
  field: FieldDef;
  recordId: number;
}

export interface FileRequest {
  id: string;
  expires: unknown;
  signature: unknown;
  credentials: { authorization?: string; cookie?: string };
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The file's row when the request may read it; else throws the coded refusal. */
export async function authorizeFile(state: ServerState, request: FileRequest): Promise<FileRow> {
  const signature = checkSignature(state.secret, request.id, request.expires, request.signature);
  if (signature === 'expired') refuse('forbidden', 'This file link has expired; ask the server for the record again');
  if (signature === 'invalid') refuse('forbidden', 'This file link is not valid');
  const identity = signature === 'valid' ? null : await state.identity.identify(request.credentials, undefined);
  // Through the read connection: no other request's open transaction is visible halfway.
  return state.db.read(async (statements) => {
    const sql = untracked(statements);
    const row = ID.test(request.id) ? findFileRow(sql, request.id) : undefined;
    if (!row) return refuse('not_found', 'No such file');
    if (!identity) return row;
    const holders = findHolders(state, sql, row.id);
    const open = holders.filter((holder) => !holder.field.protected && !holder.field.writeOnly);
    if (open.length === 0) {
      if (holders.some((holder) => holder.field.protected)) refuse('forbidden', 'This file is protected: fetch it with the signed URL its record gives');
      refuse('not_found', 'No such file');
    }
    if (identity.error) refuse('unauthenticated', 'The presented credentials are not valid');
    const outcomes: ReadOutcome[] = [];
    for (const holder of open) outcomes.push(await mayRead(state, new SqlSession(statements, false), identity.user, identity.credential, holder));
    if (outcomes.includes('ok')) return row;
    if (outcomes.includes('forbidden')) refuse('forbidden', 'You may not read the record that holds this file');
    if (outcomes.includes('unauthenticated')) refuse('unauthenticated', 'Sign in to read the record that holds this file');
    return refuse('not_found', 'No such file');
  });
}

/** The records holding a file id, searched in every file field of every model. */
export function findHolders(state: ServerState, sql: SqlRunner, fileId: string): FileHolder[] {
  const holders: FileHolder[] = [];
  for (const model of state.ws.models.values()) {
    for (const field of model.fields.values()) {
      if (field.type !== 'file' || field.hidden) continue;
      const rows = sql.all(`SELECT "id" FROM ${quote(model.table)} WHERE ${quote(field.column)} = ?`, [fileId]) as Array<{ id: number }>;
      for (const { id } of rows) holders.push({ model, field, recordId: id });
    }
  }
  return holders;
}

type ReadOutcome = 'ok' | 'not_found' | 'forbidden' | 'unauthenticated';

/** A `count` of the holding record through the model processor: the same permissions and row scopes. */
async function mayRead(state: ServerState, sql: SqlSession, user: AuthUser | null, credential: RequestContext['credential'], holder: FileHolder): Promise<ReadOutcome> {
  const ctx: RequestContext = { state, sql, user, credential, cookies: [], files: new Map() };
  const query: Record<string, JsonValue> = { __meta__: { namespace: holder.model.key, intent: 'count', schema: 'model', filter: { id: holder.recordId } } };
  try {
    const output = await state.dispatch(ctx, query);
    return (output.payload as { count: number }).count > 0 ? 'ok' : 'not_found';
  } catch (error) {
    const code = error instanceof JqlFailure ? error.errors[0]?.code : undefined;
    return code === 'forbidden' || code === 'unauthenticated' ? code : 'not_found';
  }
}

function refuse(code: 'forbidden' | 'not_found' | 'unauthenticated', message: string): never {
  throw new JqlFailure([jqlError(code, message)]);
}
