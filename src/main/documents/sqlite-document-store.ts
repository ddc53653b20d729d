/**
 * The console's own documents in the desktop app (editor tabs, saved collections), in SQLite in
 * main: one row per key. A write of several keys is one transaction, so a tab list and the tab it
 * names are stored together or not at all; a full disk fails the whole write, and the renderer says
 * what was not saved. Migrations run in a transaction when the database opens.
 */
import { openDatabase, type Sqlite } from '../../server/index.ts';
import type { DocumentChange } from '../../shared/bridge.ts';


const MIGRATIONS: string[] = [`CREATE TABLE documents (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL)`];

function migrate(db: Sqlite): void {
  db.exec('CREATE TABLE IF NOT EXISTS document_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = (db.prepare('SELECT MAX(version) AS v FROM document_migrations').get() as { v: number | null }).v ?? 0;
  db.transaction(() => {
    for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version - 1]!);
      db.prepare('INSERT INTO document_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    }
  })();
}

export class SqliteDocumentStore {
  private readonly db: Sqlite;
  private readonly now: () => number;

  constructor(db: Sqlite, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
    migrate(db);
  }

  /** Opens (or creates) the documents file, e.g. under `app.getPath('userData')`. */
  static open(file: string): SqliteDocumentStore {
    const db = openDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return new SqliteDocumentStore(db);
  }

  get(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM documents WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  write(changes: readonly DocumentChange[]): void {
    const put = this.db.prepare('INSERT INTO documents (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at');
    const remove = this.db.prepare('DELETE FROM documents WHERE key = ?');
    const at = this.now();
    this.db.transaction(() => {
      for (const change of changes) {
        if (change.value === null) remove.run(change.key);
        else put.run(change.key, change.value, at);
      }
    })();
  }

  close(): void {
    this.db.close();
  }
}
