/**
 * ON DELETE SET NULL (docs/workspace.md: a nullable reference to a deleted record is cleared): SQLite
 * clears the references itself, so the processor finds the records it will change before the delete
 * and, after it, reports each as `updated` (docs/protocol.md "Streams"), as for any other update. (The retrieve
 * cache sees the rewritten rows by itself: cache/change-capture.ts.)
 */
import type { RequestContext } from '../../context.ts';
import { quote } from '../../query/paths.ts';
import type { FieldDef, ModelDef, Workspace } from '../../workspace/types.ts';

export interface ClearedReferences {
  model: ModelDef;
  ids: number[];
}

/** The workspace's nullable references into each model, found once per workspace. */
const referrers = new WeakMap<Workspace, Map<string, Array<{ model: ModelDef; field: FieldDef }>>>();

function referrersOf(ws: Workspace, target: string): Array<{ model: ModelDef; field: FieldDef }> {
  let byTarget = referrers.get(ws);
  if (!byTarget) {
    byTarget = new Map();
    for (const model of ws.models.values()) {
      for (const field of model.fields.values()) {
        // A reference that is not nullable is ON DELETE RESTRICT: the delete is refused instead.
        if (field.type !== 'ref' || !field.nullable || !field.to) continue;
        const list = byTarget.get(field.to) ?? [];
        list.push({ model, field });
        byTarget.set(field.to, list);
      }
    }
    referrers.set(ws, byTarget);
  }
  return byTarget.get(target) ?? [];
}

/** Before deleting record `id` of `model`: the records whose references to it the delete will clear. */
export function referencesToClear(ctx: RequestContext, model: ModelDef, id: number): ClearedReferences[] {
  const cleared = new Map<ModelDef, Set<number>>();
  for (const { model: owner, field } of referrersOf(ctx.state.ws, model.key)) {
    const rows = ctx.sql.untracked.all(`SELECT "id" FROM ${quote(owner.table)} WHERE ${quote(field.column)} = ?`, [id]);
    for (const row of rows) {
      // A record referring to itself goes with the delete.
      if (owner === model && row.id === id) continue;
      let ids = cleared.get(owner);
      if (!ids) cleared.set(owner, (ids = new Set()));
      ids.add(row.id as number);
    }
  }
  return [...cleared].map(([owner, ids]) => ({ model: owner, ids: [...ids] }));
}

/** After the delete: one `updated` event per record whose reference was cleared. */
export function reportClearedReferences(ctx: RequestContext, cleared: ClearedReferences[]): void {
  for (const { model, ids } of cleared) {
    for (const id of ids) ctx.state.mutations.record(ctx.sql, { kind: 'updated', namespace: model.key, schema: 'model', id });
  }
}
