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
import { ModelReach, readGrant } from '../../query/reach.ts';
import { buildSelection, enterSelection, type Selection } from '../../query/selection.ts';
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
    // toRecords reads the subscriber only through its grants on the models nested in the selection.
    key: JSON.stringify(['model', model.key, input.fields ?? null, nestedGrants(subscriber, selection)]),
    // The compiled statement and its values are the whole of the test an event's snapshot goes through.
    matchKey: match ? JSON.stringify([match.sql, match.params]) : null,
    matches(event, sql) {
      const snapshot = event.row;
      if (!snapshot) return false;
      if (!match) return true;
      const params: SqlParam[] = [...columns.map((field) => sqlValueOf(snapshot[field.column])), ...match.params];
      return sql.get(match.sql, params) !== undefined;
    },
    render(event, sql) {
      if (event.event === 'deleted') return { id: event.recordId };
      const snapshot = event.row ?? {};
      const row: Row = {};
      for (const field of columns) row[field.column] = sqlValueOf(snapshot[field.column]);
      return (toRecords({ ...subscriber, sql }, selection, [row])[0] as JsonValue | undefined) ?? null;
    },
  };
}

/** The subscriber's grant on each model a nested level of the selection reads (records.ts readNested). */
function nestedGrants(reader: Subscriber, selection: Selection): Array<[string, ReturnType<typeof readGrant>]> {
  const models = new Map<string, ModelDef>();
  const walk = (level: Selection): void => {
    for (const { selection: nested } of [...level.refs, ...level.reverse]) {
      models.set(nested.model.key, nested.model);
      walk(nested);
    }
  };
  walk(selection);
  return [...models.keys()].sort().map((key) => [key, readGrant(reader, models.get(key) as ModelDef)]);
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
