/**
 * Record views of a collection's events: the filter and row scope compile with the nosql processor's
 * own compileWhere (document paths as sent, JSON-typed comparisons) and run against the event's
 * snapshot of the document's row; the record is built by its `toRecord` with the `fields` keys.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { Scopes } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { quote } from '../../query/paths.ts';
import { DOCUMENT_COLUMNS, sqlValueOf } from '../../streams/snapshot.ts';
import { SNAPSHOT, type RecordView, type Subscriber, type ViewInput } from '../../streams/views.ts';
import type { CollectionDef } from '../../workspace/types.ts';
import { selectionOf, toRecord } from './records.ts';
import { compileWhere } from './where.ts';

export function nosqlStreamView(_subscriber: Subscriber, collection: CollectionDef, scopes: Scopes, input: ViewInput): RecordView {
  const selection = selectionOf(input.fields, undefined, ['fields']);
  const restricted = scopes !== null || (input.filter !== undefined && Object.keys(input.filter).length > 0);
  const where = restricted ? compileWhere(collection.key, { filter: input.filter, scopes }) : null;
  const names = DOCUMENT_COLUMNS.map(quote).join(', ');
  const slots = DOCUMENT_COLUMNS.map(() => '?').join(', ');
  const matchSql = where ? `WITH ${SNAPSHOT}(${names}) AS (SELECT ${slots}) SELECT 1 AS hit FROM ${SNAPSHOT} AS d ${where.sql} LIMIT 1` : null;
  return {
    // A document renders from its snapshot and the `fields` keys alone: the subscriber plays no part.
    key: JSON.stringify(['nosql', collection.key, input.fields ?? null]),
    matchKey: matchSql && where ? JSON.stringify([matchSql, where.params]) : null,
    matches(event, sql) {
      const snapshot = event.row;
      if (!snapshot) return false;
      if (!matchSql || !where) return true;
      const params: SqlParam[] = [...DOCUMENT_COLUMNS.map((column) => sqlValueOf(snapshot[column])), ...where.params];
      return sql.get(matchSql, params) !== undefined;
    },
    render(event) {
      if (event.event === 'deleted') return { id: event.recordId };
      return toRecord((event.row ?? {}) as Row, selection) as JsonValue;
    },
  };
}
