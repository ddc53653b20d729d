/**
 * Which values `--redact FIELD,...` replaces. `app.Model.field` names one model field,
 * `app.Collection.key` one top-level key of a collection's documents, and a bare `field` every model
 * field and document key of that name. Ids and references are never redacted (relations must hold),
 * nor the server's own document keys; a name that matches nothing is a mistake, not a no-op.
 */
import { isReservedKey } from '../processors/nosql/paths.ts';
import type { Workspace } from '../workspace/types.ts';

export interface RedactionPlan {
  /** Model key -> field names. */
  fields: Map<string, Set<string>>;
  /** Collection key -> top-level document keys. */
  documentKeys: Map<string, Set<string>>;
  /**
   * What is redacted, as `app.Model.field` (for the manifest). A bare name's document keys are not
   * listed here: the documents may not hold them; the clone lists those it found.
   */
  listed: string[];
}

export class RedactionError extends Error {
  override readonly name = 'RedactionError';
}

export function planRedaction(ws: Workspace, specs: readonly string[]): RedactionPlan {
  const plan: RedactionPlan = { fields: new Map(), documentKeys: new Map(), listed: [] };
  const addField = (model: string, field: string) => {
    if (!plan.fields.has(model)) plan.fields.set(model, new Set());
    plan.fields.get(model)!.add(field);
    plan.listed.push(`${model}.${field}`);
  };
  const addKey = (collection: string, key: string, listed: boolean) => {
    if (!plan.documentKeys.has(collection)) plan.documentKeys.set(collection, new Set());
    plan.documentKeys.get(collection)!.add(key);
    if (listed) plan.listed.push(`${collection}.${key}`);
  };
  for (const raw of specs) {
    const spec = raw.trim();
    if (spec === '') continue;
    if (spec === 'id' || spec.endsWith('.id')) throw new RedactionError(`--redact ${spec}: ids are kept so that the copy answers the same records`);
    const parts = spec.split('.');
    if (parts.length === 3) {
      const [app, name, field] = parts as [string, string, string];
      const key = `${app}.${name}`;
      const model = ws.models.get(key);
      if (model) {
        const def = model.fields.get(field);
        if (!def || def.hidden || def.writeOnly) throw new RedactionError(`--redact ${spec}: ${key} has no readable field "${field}"`);
        if (def.type === 'ref') throw new RedactionError(`--redact ${spec}: a reference keeps its id so relations hold; redact fields of ${def.to} instead`);
        addField(key, field);
      } else if (ws.collections.has(key)) {
        if (isReservedKey(field)) throw new RedactionError(`--redact ${spec}: "${field}" is set by the server and is kept`);
        addKey(key, field, true);
      } else {
        throw new RedactionError(`--redact ${spec}: no model or collection ${key}`);
      }
      continue;
    }
    if (parts.length !== 1) throw new RedactionError(`--redact ${spec}: name a field (email) or app.Model.field (system.User.email)`);
    let matched = false;
    for (const model of ws.models.values()) {
      const def = model.fields.get(spec);
      if (!def || def.hidden || def.writeOnly || def.type === 'ref') continue;
      addField(model.key, spec);
      matched = true;
    }
    if (!isReservedKey(spec)) {
      for (const collection of ws.collections.keys()) {
        addKey(collection, spec, false);
        matched = true;
      }
    }
    if (!matched) throw new RedactionError(`--redact ${spec}: no model has a readable, non-reference field "${spec}"`);
  }
  return plan;
}
