/**
 * The run history of the Electron app in SQLite (better-sqlite3), in main. Migrations run in a
 * transaction when the database opens and are recorded in a table. Search is
 * SQL: each word must appear in the document, summary or connection name (LIKE, so case-insensitive
 * for ASCII); runs are newest first; add drops the oldest runs beyond the retention limit in the
 * same transaction.
 */
import { randomUUID } from 'node:crypto';
import { openDatabase, type Sqlite } from '../../server/index.ts';
import { DEFAULT_PAGE, DEFAULT_RETENTION, MAX_PAGE, type HistoryQuery, type HistoryRun, type NewHistoryRun } from '../../shared/history.ts';


const MIGRATIONS: string[] = [
  `CREATE TABLE runs (
     id TEXT PRIMARY KEY,
     connection_id TEXT NOT NULL,
     connection_name TEXT NOT NULL,
     document TEXT NOT NULL,
     status INTEGER NOT NULL,
     time_ms REAL NOT NULL,
     size INTEGER NOT NULL,
     summary TEXT NOT NULL,
     at INTEGER NOT NULL
   );
   CREATE INDEX runs_at ON runs (at DESC);
   CREATE INDEX runs_connection_at ON runs (connection_id, at DESC);`,
  // The editor tab a run came from: a re-run from the history goes back to it.
  `ALTER TABLE runs ADD COLUMN tab_id TEXT`,
];

export function migrate(db: Sqlite): number {
  db.exec('CREATE TABLE IF NOT EXISTS history_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = (db.prepare('SELECT MAX(version) AS v FROM history_migrations').get() as { v: number | null }).v ?? 0;
  db.transaction(() => {
    for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version - 1]!);
      db.prepare('INSERT INTO history_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    }
  })();
  return MIGRATIONS.length;
}

interface Row {
  id: string;
  connection_id: string;
  connection_name: string;
  document: string;
  status: number;
  time_ms: number;
  size: number;
  summary: string;
  at: number;
  tab_id: string | null;
}

const fromRow = (r: Row): HistoryRun => ({
  id: r.id,
  connectionId: r.connection_id,
  connectionName: r.connection_name,
  document: r.document,
  status: r.status,
  timeMs: r.time_ms,
  size: r.size,
  summary: r.summary,
  at: r.at,
  ...(r.tab_id !== null ? { tabId: r.tab_id } : {}),
});

/** `%` and `_` in a search word are literal. */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface SqliteHistoryOptions {
  retention?: number;
  newId?: () => string;
}

export class SqliteHistoryStore {
  readonly retention: number;
  private readonly db: Sqlite;
  private readonly newId: () => string;

  constructor(db: Sqlite, options: SqliteHistoryOptions = {}) {
    const retention = options.retention ?? DEFAULT_RETENTION;
    if (!Number.isSafeInteger(retention) || retention < 1) throw new Error('The history retention must be a positive integer.');
    this.db = db;
    this.retention = retention;
    this.newId = options.newId ?? randomUUID;
    migrate(db);
  }

  /** Opens (or creates) the history database file, e.g. under `app.getPath('userData')`. */
  static open(file: string, options: SqliteHistoryOptions = {}): SqliteHistoryStore {
    const db = openDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return new SqliteHistoryStore(db, options);
  }

  add(input: NewHistoryRun): HistoryRun {
    const run: HistoryRun = { id: this.newId(), ...input };
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO runs (id, connection_id, connection_name, document, status, time_ms, size, summary, at, tab_id)
           VALUES (@id, @connectionId, @connectionName, @document, @status, @timeMs, @size, @summary, @at, @tabId)`,
        )
        .run({ ...run, tabId: run.tabId ?? null });
      this.db.prepare('DELETE FROM runs WHERE rowid IN (SELECT rowid FROM runs ORDER BY at DESC, rowid DESC LIMIT -1 OFFSET ?)').run(this.retention);
    })();
    return run;
  }

  list(query: HistoryQuery = {}): HistoryRun[] {
    const where: string[] = [];
    const params: Array<string | number> = [];
    for (const word of (query.text ?? '').split(/\s+/).filter((w) => w !== '')) {
      where.push("(document LIKE ? ESCAPE '\\' OR summary LIKE ? ESCAPE '\\' OR connection_name LIKE ? ESCAPE '\\')");
      const pattern = likePattern(word);
      params.push(pattern, pattern, pattern);
    }
    if (query.connectionId !== undefined) {
      where.push('connection_id = ?');
      params.push(query.connectionId);
    }
    if (query.outcome === 'ok') where.push('status BETWEEN 200 AND 299');
    if (query.outcome === 'error') where.push('status NOT BETWEEN 200 AND 299');
    const limit = Math.min(query.limit ?? DEFAULT_PAGE, MAX_PAGE);
    const offset = query.offset ?? 0;
    const sql = `SELECT * FROM runs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, rowid DESC LIMIT ? OFFSET ?`;
    return (this.db.prepare(sql).all(...params, limit, offset) as Row[]).map(fromRow);
  }

  get(id: string): HistoryRun | null {
    const row = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM runs WHERE id = ?').run(id);
  }

  clear(): void {
    this.db.prepare('DELETE FROM runs').run();
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
