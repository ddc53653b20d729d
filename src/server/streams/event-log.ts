/**
 * The persisted event log (docs/protocol.md "Streams"), appended by the processors through the MutationSink
 * inside the request's transaction. A write that is rolled back (an atomic multi-query that failed, a
 * controller that threw) takes its event row with it, so only committed mutations ever have a
 * sequence number, and AUTOINCREMENT keeps numbers growing across restarts.
 *
 * Each row keeps a snapshot of the record (snapshot.ts): the row after a create or update, and for a
 * delete the row as it was just before it (event-tables.ts copies it aside).
 */
import type { JsonObject, JsonValue } from '../../shared/protocol.ts';
import type { MutationSink } from '../context.ts';
import { limitLiteral } from '../db/limit-literal.ts';
import { isInt64, parseJsonExact } from '../exact-integers.ts';
import type { SqlRunner } from '../db/sql-session.ts';
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
const INSERT = 'INSERT INTO jql_events (at, namespace, schema, event, record_id, payload) VALUES (?, ?, ?, ?, ?, ?)';

export class EventLog {
  private ws: Workspace;
  private readonly snapshots = new Map<string, string | null>();

  constructor(ws: Workspace) {
    this.ws = ws;
  }

  /** A workspace applied in place: events are classified and snapshotted by its models from now on. */
  useWorkspace(ws: Workspace): void {
    this.ws = ws;
    this.snapshots.clear();
  }

  /** The sink the processors report to; `onAppend` hears of every appended (not yet committed) row. */
  sink(onAppend: () => void): MutationSink {
    return {
      record: (session, { kind, namespace, schema, id }) => {
        const sql = session.untracked;
        const row = kind === 'deleted' ? this.preImage(sql, schema, namespace, id) : this.currentRow(sql, schema, namespace, id);
        // A bigint in the row is logged as its digits (src/server/exact-integers.ts).
        append(sql, namespace, schema, kind, id, { row: row as JsonObject | null });
        onAppend();
      },
      emit: (session, namespace, event, record) => {
        const schema: EventSchema = this.ws.collections.has(namespace) ? 'nosql' : this.ws.models.has(namespace) ? 'model' : 'controller';
        const id = isRecordWithId(record) ? record.id : null;
        append(session.untracked, namespace, schema, event, id, { record });
        onAppend();
      },
    };
  }

  /** The highest committed sequence number (0 for an empty log). */
  latest(sql: SqlRunner): number {
    // AUTOINCREMENT's counter survives pruning, and a rolled-back insert rolls it back too.
    return (sql.get('SELECT seq FROM main.sqlite_sequence WHERE name = ?', ['jql_events']) as { seq: number } | undefined)?.seq ?? 0;
  }

  oldest(sql: SqlRunner): number | null {
    return (sql.get('SELECT min(seq) AS seq FROM jql_events') as { seq: number | null }).seq;
  }

  /** Events with `after < seq <= upTo` in order, optionally of one namespace, at most `limit`. */
  read(sql: SqlRunner, after: number, upTo: number, limit: number, namespace?: string): LoggedEvent[] {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`An event log read takes a positive whole limit, not ${limit}`);
    const rows =
      namespace === undefined
        ? sql.all(`SELECT ${COLUMNS} FROM jql_events WHERE seq > ? AND seq <= ? ORDER BY seq ${limitLiteral(limit)}`, [after, upTo])
        : sql.all(`SELECT ${COLUMNS} FROM jql_events WHERE namespace = ? AND seq > ? AND seq <= ? ORDER BY seq ${limitLiteral(limit)}`, [namespace, after, upTo]);
    return (rows as unknown as EventRow[]).map(toLoggedEvent);
  }

  /** Removes the events up to `upTo` (docs/protocol.md "Streams": the retained window `since` can replay). */
  prune(sql: SqlRunner, upTo: number): void {
    if (upTo > 0) sql.run('DELETE FROM jql_events WHERE seq <= ?', [upTo]);
  }

  /** Old rows copied by deletes that nobody reported (a cascade, a failed statement) are dropped. */
  clearPreImages(sql: SqlRunner): void {
    sql.run('DELETE FROM temp.jql_deleted_rows');
  }

  private currentRow(sql: SqlRunner, schema: 'model' | 'nosql', namespace: string, id: number): SnapshotRow | null {
    const key = `${schema}:${namespace}`;
    let text = this.snapshots.get(key);
    if (text === undefined) {
      if (schema === 'nosql') {
        text = `SELECT ${DOCUMENT_COLUMNS.map(quote).join(', ')} FROM ${DOCUMENTS_TABLE} WHERE "id" = ?`;
      } else {
        const model = this.ws.models.get(namespace);
        text = model ? `SELECT ${snapshotFields(model).map((field) => quote(field.column)).join(', ')} FROM ${quote(model.table)} WHERE "id" = ?` : null;
      }
      this.snapshots.set(key, text);
    }
    return text === null ? null : ((sql.get(text, [id]) as SnapshotRow | undefined) ?? null);
  }

  private preImage(sql: SqlRunner, schema: 'model' | 'nosql', namespace: string, id: number): SnapshotRow | null {
    const table = schema === 'nosql' ? DOCUMENTS_TABLE : this.ws.models.get(namespace)?.table;
    if (table === undefined) return null;
    const copies = sql.all('DELETE FROM temp.jql_deleted_rows WHERE tbl = ? AND id = ? RETURNING row', [table, id]) as Array<{ row: string }>;
    const last = copies[copies.length - 1];
    return last ? (parseJsonExact(last.row) as SnapshotRow) : null;
  }
}

function append(sql: SqlRunner, namespace: string, schema: EventSchema, event: string, id: number | null, payload: JsonObject): void {
  sql.run(INSERT, [new Date().toISOString(), namespace, schema, event, id, JSON.stringify(payload)]);
}

function toLoggedEvent(row: EventRow): LoggedEvent {
  // Exact: a logged id or value past 2^53 is sent with its digits (exact-integers.ts).
  const payload = parseJsonExact(row.payload) as { row?: SnapshotRow | null; record?: JsonValue };
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
  return typeof value === 'object' && value !== null && !Array.isArray(value) && isInt64(value.id);
}
