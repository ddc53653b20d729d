/**
 * The persisted event log (PROTOCOL.md 10): table `jql_events`, appended by the processors through
 * the MutationSink inside the request's transaction. A write that is rolled back (an atomic
 * multi-query that failed, a controller that threw) takes its event row with it, so only committed
 * mutations ever have a sequence number, and AUTOINCREMENT keeps numbers growing across restarts.
 *
 * Each row keeps a snapshot of the record (snapshot.ts): the row after a create or update, and for a
 * delete the row as it was just before it. Deletes are reported after the row is gone, so a
 * connection-local (TEMP) trigger per table copies the old row aside in the same transaction, and
 * `record()` takes it from there.
 */
import type { JsonObject, JsonValue } from '../../shared/protocol.ts';
import type { MutationSink } from '../context.ts';
import type { Sqlite, Statement } from '../db/database.ts';
import { DOCUMENTS_TABLE } from '../processors/nosql/tables.ts';
import { quote } from '../query/paths.ts';
import type { Workspace } from '../workspace/types.ts';
import { DOCUMENT_COLUMNS, snapshotFields, type SnapshotRow } from './snapshot.ts';

export type EventSchema = 'model' | 'nosql' | 'controller';

export interface LoggedEvent {
  seq: number;
  at: string;
  namespace: string;
  schema: EventSchema;
  event: string;
  recordId: number | null;
  /** created/updated/deleted: the record's row (null when it could not be read). */
  row: SnapshotRow | null;
  /** A controller's custom event (`ctx.events.emit`): the record as the controller gave it. */
  custom?: { record: JsonValue };
}

interface EventRow {
  seq: number;
  at: string;
  namespace: string;
  schema: EventSchema;
  event: string;
  record_id: number | null;
  payload: string;
}

const COLUMNS = 'seq, at, namespace, schema, event, record_id, payload';
/** json_object() takes at most 127 arguments by default: wide tables are copied in slices. */
const COLUMNS_PER_OBJECT = 60;

export function ensureEventTables(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS jql_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      namespace TEXT NOT NULL,
      schema TEXT NOT NULL,
      event TEXT NOT NULL,
      record_id INTEGER,
      payload TEXT NOT NULL -- JSON: {"row": {...}} or {"record": ...}
    );
    CREATE INDEX IF NOT EXISTS jql_events_namespace ON jql_events (namespace, seq);
  `);
}

export class EventLog {
  private readonly db: Sqlite;
  private readonly ws: Workspace;
  private readonly insert: Statement;
  private readonly takePreImage: Statement;
  private readonly snapshots = new Map<string, Statement>();
  private readonly statements = new Map<string, Statement>();

  constructor(db: Sqlite, ws: Workspace) {
    this.db = db;
    this.ws = ws;
    db.transaction(() => {
      ensureEventTables(db);
      installPreImageCapture(db, ws);
    })();
    this.insert = db.prepare('INSERT INTO jql_events (at, namespace, schema, event, record_id, payload) VALUES (?, ?, ?, ?, ?, ?)');
    this.takePreImage = db.prepare('DELETE FROM temp.jql_deleted_rows WHERE tbl = ? AND id = ? RETURNING row');
  }

  /** The sink the processors report to; `onAppend` hears of every appended (not yet committed) row. */
  sink(onAppend: () => void): MutationSink {
    return {
      record: ({ kind, namespace, schema, id }) => {
        const row = kind === 'deleted' ? this.preImage(schema, namespace, id) : this.currentRow(schema, namespace, id);
        this.append(namespace, schema, kind, id, { row });
        onAppend();
      },
      emit: (namespace, event, record) => {
        const schema: EventSchema = this.ws.collections.has(namespace) ? 'nosql' : this.ws.models.has(namespace) ? 'model' : 'controller';
        const id = isRecordWithId(record) ? record.id : null;
        this.append(namespace, schema, event, id, { record });
        onAppend();
      },
    };
  }

  /** The highest committed sequence number (0 for an empty log), read between requests. */
  latest(): number {
    // AUTOINCREMENT's counter survives pruning, and a rolled-back insert rolls it back too.
    return (this.statement('SELECT seq FROM main.sqlite_sequence WHERE name = ?').get('jql_events') as { seq: number } | undefined)?.seq ?? 0;
  }

  oldest(): number | null {
    return (this.statement('SELECT min(seq) AS seq FROM jql_events').get() as { seq: number | null }).seq;
  }

  /** Events with `after < seq <= upTo` in order, optionally of one namespace, at most `limit`. */
  read(after: number, upTo: number, limit: number, namespace?: string): LoggedEvent[] {
    const rows = namespace === undefined
      ? this.statement(`SELECT ${COLUMNS} FROM jql_events WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`).all(after, upTo, limit)
      : this.statement(`SELECT ${COLUMNS} FROM jql_events WHERE namespace = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`).all(namespace, after, upTo, limit);
    return (rows as EventRow[]).map(toLoggedEvent);
  }

  /** Keeps the last `keep` events (PROTOCOL.md 10: the retained window `since` can replay). */
  prune(keep: number, latest: number): void {
    if (latest > keep) this.statement('DELETE FROM jql_events WHERE seq <= ?').run(latest - keep);
  }

  /** Old rows copied by deletes that nobody reported (a cascade, a failed statement) are dropped. */
  clearPreImages(): void {
    this.statement('DELETE FROM temp.jql_deleted_rows').run();
  }

  private append(namespace: string, schema: EventSchema, event: string, id: number | null, payload: JsonObject): void {
    this.insert.run(new Date().toISOString(), namespace, schema, event, id, JSON.stringify(payload));
  }

  private currentRow(schema: 'model' | 'nosql', namespace: string, id: number): SnapshotRow | null {
    const key = `${schema}:${namespace}`;
    let statement = this.snapshots.get(key);
    if (!statement) {
      if (schema === 'nosql') {
        statement = this.db.prepare(`SELECT ${DOCUMENT_COLUMNS.map(quote).join(', ')} FROM ${DOCUMENTS_TABLE} WHERE "id" = ?`);
      } else {
        const model = this.ws.models.get(namespace);
        if (!model) return null;
        const columns = snapshotFields(model).map((field) => quote(field.column));
        statement = this.db.prepare(`SELECT ${columns.join(', ')} FROM ${quote(model.table)} WHERE "id" = ?`);
      }
      this.snapshots.set(key, statement);
    }
    return (statement.get(id) as SnapshotRow | undefined) ?? null;
  }

  private preImage(schema: 'model' | 'nosql', namespace: string, id: number): SnapshotRow | null {
    const table = schema === 'nosql' ? DOCUMENTS_TABLE : this.ws.models.get(namespace)?.table;
    if (table === undefined) return null;
    const copies = this.takePreImage.all(table, id) as Array<{ row: string }>;
    const last = copies[copies.length - 1];
    return last ? (JSON.parse(last.row) as SnapshotRow) : null;
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

function toLoggedEvent(row: EventRow): LoggedEvent {
  const payload = JSON.parse(row.payload) as { row?: SnapshotRow | null; record?: JsonValue };
  const event: LoggedEvent = {
    seq: row.seq,
    at: row.at,
    namespace: row.namespace,
    schema: row.schema,
    event: row.event,
    recordId: row.record_id,
    row: payload.row ?? null,
  };
  if (Object.hasOwn(payload, 'record')) event.custom = { record: payload.record ?? null };
  return event;
}

function isRecordWithId(value: JsonValue): value is JsonObject & { id: number } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Number.isSafeInteger(value.id);
}

/** One TEMP trigger per table that copies a row's readable columns aside just before it is deleted. */
function installPreImageCapture(db: Sqlite, ws: Workspace): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS jql_deleted_rows (tbl TEXT NOT NULL, id INTEGER NOT NULL, row TEXT NOT NULL)');
  const tables: Array<{ table: string; columns: readonly string[] }> = [
    { table: DOCUMENTS_TABLE, columns: DOCUMENT_COLUMNS },
    ...[...ws.models.values()].map((model) => ({ table: model.table, columns: snapshotFields(model).map((field) => field.column) })),
  ];
  for (const { table, columns } of tables) {
    const name = quote(`jql_streams_pre_delete(${table})`);
    db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
    db.exec(
      `CREATE TEMP TRIGGER ${name} BEFORE DELETE ON main.${quote(table)} BEGIN ` +
        `INSERT INTO jql_deleted_rows (tbl, id, row) VALUES (${literal(table)}, OLD."id", ${rowObject(columns)}); END`,
    );
  }
}

/** `json_object('col', OLD."col", ...)`; a BLOB (which JSON cannot hold) is copied as null. */
function rowObject(columns: readonly string[]): string {
  const slices: string[] = [];
  for (let i = 0; i < columns.length; i += COLUMNS_PER_OBJECT) {
    const pairs = columns.slice(i, i + COLUMNS_PER_OBJECT).map((column) => {
      const value = `OLD.${quote(column)}`;
      return `${literal(column)}, CASE WHEN typeof(${value}) = 'blob' THEN NULL ELSE ${value} END`;
    });
    slices.push(`json_object(${pairs.join(', ')})`);
  }
  // json_patch drops null members of later slices: a missing column reads as null all the same.
  return slices.reduce((joined, slice) => `json_patch(${joined}, ${slice})`);
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
