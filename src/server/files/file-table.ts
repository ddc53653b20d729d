/**
 * Metadata rows of stored files (docs/protocol.md "Multipart uploads"): one row per stored upload, the bytes living in the
 * content-addressed store under their SHA-256. File fields of records hold a row's opaque id.
 */
import type { FileValue } from '../../shared/protocol.ts';
import type { FileResolver } from '../context.ts';
import type { Sqlite } from '../db/database.ts';
import type { SqlRunner } from '../db/sql-session.ts';
import type { FileReferences } from './file-references.ts';
import { cleanFileName } from './file-name.ts';
import type { UrlSigner } from './signed-url.ts';

export function ensureFileTables(db: Sqlite): void {
  db.exec(`CREATE TABLE IF NOT EXISTS jql_files (
    id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`);
  db.exec('CREATE INDEX IF NOT EXISTS jql_files_sha256 ON jql_files (sha256)');
}

export interface FileRow {
  id: string;
  sha256: string;
  size: number;
  content_type: string;
  name: string;
}

export function findFileRow(sql: SqlRunner, id: string): FileRow | undefined {
  return sql.get('SELECT id, sha256, size, content_type, name FROM jql_files WHERE id = ?', [id]) as FileRow | undefined;
}

const SELECT_FILES = 'SELECT id, sha256, size, content_type, name FROM jql_files WHERE id IN (SELECT value FROM json_each(?))';

export function createFileResolver(url: UrlSigner, references: FileReferences): FileResolver {
  return {
    heldBy(sql, table, id, columns) {
      return references.idsOf(sql.untracked, table, id, columns);
    },
    release(ctx, ids) {
      if (ids.length === 0) return;
      const hashes = references.dropUnreferenced(ctx.sql.untracked, ids);
      if (hashes.length > 0) ctx.state.db.afterCommit(() => hashes.forEach((sha256) => ctx.state.fileStore.collect(sha256)));
    },
    attach(ctx, file) {
      // Idempotent, and inside the caller's transaction: a rolled-back record takes its row with it.
      ctx.sql.untracked.run('INSERT OR IGNORE INTO jql_files (id, sha256, size, content_type, name, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        file.id,
        file.sha256,
        file.size,
        file.contentType,
        // Whoever made the file (a multipart part, a controller), its stored name follows the rule.
        cleanFileName(file.name),
        new Date().toISOString(),
      ]);
    },
    signedUrl: (id) => url(id, true),
    describe(sql, ids, field) {
      const out = new Map<string, FileValue>();
      // Through the request's own session: a record written in this transaction finds its file.
      for (const row of sql.untracked.all(SELECT_FILES, [JSON.stringify(ids)]) as unknown as FileRow[]) {
        out.set(row.id, { name: row.name, size: row.size, content_type: row.content_type, sha256: row.sha256, url: url(row.id, field.protected) });
      }
      return out;
    },
  };
}
