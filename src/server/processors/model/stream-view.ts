/**
 * Record views of a model's events. The filter and row scope compile exactly as a query's do
 * (compileWhere), then run against the event's snapshot row, put in place of the model's table as a
 * one-row CTE: references the filter traverses are joined from their tables as usual. The record is
 * serialized by the model processor's own `toRecords`, so nested selections, file URLs and the
 * subscriber's access to nested models behave as in a retrieve.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { Scopes } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { JoinSet, rootFrom } from '../../query/joins.ts';
import { mapKeys, snakePath, snakeSelection } from '../../query/normalize.ts';
import { quote } from '../../query/paths.ts';
import { ModelReach } from '../../query/reach.ts';
import { buildSelection, enterSelection } from '../../query/selection.ts';
import { snapshotFields, sqlValueOf } from '../../streams/snapshot.ts';
import { SNAPSHOT, type RecordView, type Subscriber, type ViewInput } from '../../streams/views.ts';
import type { FieldDef, ModelDef } from '../../workspace/types.ts';
import { toRecords } from './records.ts';
import { compileWhere } from './where.ts';

export function modelStreamView(subscriber: Subscriber, model: ModelDef, scopes: Scopes, input: ViewInput): RecordView {
  const ctx = subscriber;
  const selection = buildSelection(ctx.state.ws, model, input.fields ? snakeSelection(input.fields) : null, ['fields']);
  // The same checks as a retrieve's, when subscribing: a model the fields or the filter reach that the
  // subscriber may not read refuses the subscription; joined rows stay within the subscriber's scopes.
  const reach = new ModelReach(ctx, model, scopes);
  enterSelection(reach, selection, ['fields']);
  const filter = input.filter ? mapKeys(input.filter, snakePath) : undefined;
  const columns = snapshotFields(model);
  const match = compileMatch(reach, columns, filter, scopes);
  return {
    render(event, sql) {
      const snapshot = event.row;
      if (!snapshot) return null;
      if (match) {
        const params: SqlParam[] = [...columns.map((field) => sqlValueOf(snapshot[field.column])), ...match.params];
        if (!sql.get(match.sql, params)) return null;
      }
      if (event.event === 'deleted') return { id: event.recordId };
      const row: Row = {};
      for (const field of columns) row[field.column] = sqlValueOf(snapshot[field.column]);
      return (toRecords({ ...subscriber, sql }, selection, [row])[0] as JsonValue | undefined) ?? null;
    },
  };
}

/** `WITH jql_snapshot(cols) AS (SELECT ?, ...) SELECT 1 FROM jql_snapshot AS t0 [joins] WHERE ...`; null when nothing restricts. */
function compileMatch(reach: ModelReach, columns: FieldDef[], filter: Record<string, JsonValue> | undefined, scopes: Scopes): { sql: string; params: SqlParam[] } | null {
  const model = reach.root;
  const joins = new JoinSet(reach);
  const where = compileWhere(reach.reader.state.ws, model, { filter, scopes }, joins);
  if (where.sql === '') return null;
  const from = joins.from();
  const root = rootFrom(model);
  if (!from.sql.startsWith(root)) throw new Error(`Unexpected FROM clause for ${model.key}`);
  const names = columns.map((field) => quote(field.column)).join(', ');
  const slots = columns.map(() => '?').join(', ');
  const sql = `WITH ${SNAPSHOT}(${names}) AS (SELECT ${slots}) SELECT 1 AS hit FROM ${SNAPSHOT} AS t0${from.sql.slice(root.length)} ${where.sql} LIMIT 1`;
  // The snapshot's values come first (render() puts them there), then the joins', then the filter's.
  return { sql, params: [...from.params, ...where.params] };
}
