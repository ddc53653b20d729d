// The one table behind every NoSQL collection (docs/protocol.md "Processors"): documents are JSON text keyed by their
// collection; `id` and the timestamps live in columns so they sort and filter without JSON parsing.
import type { Sqlite } from '../../db/database.ts';

export const DOCUMENTS_TABLE = 'jql_documents';

export function ensureNosqlTables(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS jql_documents (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      collection TEXT NOT NULL,
      body TEXT NOT NULL, -- JSON object, written only by JSON.stringify
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS jql_documents_collection ON jql_documents (collection, id);
  `);
}
