/**
 * Writes the prepared copy into the local server's database in one transaction, through the
 * processors' restore path (processors/model/restore.ts, processors/nosql/restore.ts): the model's
 * value checks and codec, file rows, the event log. References are checked at the commit, so the
 * order of the records does not matter; anything that fails rolls the whole copy back.
 */
import type { RequestContext, ServerState, UploadedFile } from '../context.ts';
import { SqlSession } from '../db/sql-session.ts';
import { JqlFailure } from '../errors.ts';
import { deferReferenceChecks, restoreRecord } from '../processors/model/restore.ts';
import { restoreDocument } from '../processors/nosql/restore.ts';
import type { Prepared } from './prepare-rows.ts';

export class LocalWriteError extends Error {
  override readonly name = 'LocalWriteError';
}

export async function writeLocal(state: ServerState, prepared: Prepared, uploads: ReadonlyMap<string, UploadedFile>, onWritten?: (done: number, total: number) => void): Promise<void> {
  const total = prepared.rows.length + prepared.documents.length;
  await state.db.write(async (statements) => {
    const sql = new SqlSession(statements, false);
    const ctx: RequestContext = { state, sql, user: null, credential: {}, cookies: [], files: new Map() };
    deferReferenceChecks(sql);
    let done = 0;
    for (const row of prepared.rows) {
      const files = new Map<string, UploadedFile>();
      for (const [field, ref] of row.files) files.set(field, uploads.get(ref.localId) as UploadedFile);
      try {
        await restoreRecord(ctx, row.model, row.id, row.data, files);
      } catch (error) {
        throw described(error, `${row.model.key} ${row.id}`);
      }
      if (++done % 500 === 0) onWritten?.(done, total);
    }
    for (const document of prepared.documents) {
      try {
        restoreDocument(ctx, document.collection, document.record);
      } catch (error) {
        throw described(error, `${document.collection.key} ${String(document.record.id)}`);
      }
      if (++done % 500 === 0) onWritten?.(done, total);
    }
  }).catch((error: unknown) => {
    // A deferred reference check fails at COMMIT: name it in words, not as SQLite's code.
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new LocalWriteError('The copy would hold a reference to a record it does not hold; nothing was written');
    throw error;
  });
  onWritten?.(total, total);
}

function described(error: unknown, what: string): Error {
  if (error instanceof JqlFailure) return new LocalWriteError(`${what} could not be written: ${error.errors.map((e) => e.message).join('; ')}`);
  return error as Error;
}
