/**
 * Record views of a collection's events: the filter and row scope compile with the nosql processor's
 * own compileWhere (document paths as sent, JSON-typed comparisons) and run against the event's
 * snapshot of the document's row; the record is built by its `toRecord` with the `fields` keys.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { RequestContext, Scopes } from '../context.ts';
import type { Row, SqlParam } from '../db/sql-session.ts';
import { selectionOf, toRecord } from '../processors/nosql/records.ts';
import { compileWhere } from '../processors/nosql/where.ts';
import { quote } from '../query/paths.ts';
import type { CollectionDef } from '../workspace/types.ts';
import { DOCUMENT_COLUMNS, sqlValueOf } from './snapshot.ts';
import { SNAPSHOT, type RecordView, type ViewInput } from './views.ts';

export function nosqlView(ctx: RequestContext, collection: CollectionDef, scopes: Scopes, input: ViewInput): RecordView {
  const selection = selectionOf(input.fields, undefined, ['fields']);
  const restricted = scopes !== null || (input.filter !== undefined && Object.keys(input.filter).length > 0);
  const where = restricted ? compileWhere(collection.key, { filter: input.filter, scopes }) : null;
  const names = DOCUMENT_COLUMNS.map(quote).join(', ');
  const slots = DOCUMENT_COLUMNS.map(() => '?').join(', ');
  const sql = where ? `WITH ${SNAPSHOT}(${names}) AS (SELECT ${slots}) SELECT 1 AS hit FROM ${SNAPSHOT} AS d ${where.sql} LIMIT 1` : null;
  return {
    render(event) {
      const snapshot = event.row;
      if (!snapshot) return null;
      if (sql && where) {
        const params: SqlParam[] = [...DOCUMENT_COLUMNS.map((column) => sqlValueOf(snapshot[column])), ...where.params];
        if (!ctx.sql.get(sql, params)) return null;
      }
      if (event.event === 'deleted') return { id: event.recordId };
      return toRecord(snapshot as Row, selection) as JsonValue;
    },
  };
}
