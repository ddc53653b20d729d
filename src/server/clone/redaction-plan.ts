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
  /**
   * Bare names that matched no model field, only (possible) document keys: unless a copied document
   * holds one, the name was a mistake (a typo must not leave the field it meant unredacted).
   */
  documentOnly: string[];
}

export class RedactionError extends Error {
  override readonly name = 'RedactionError';
}

export function unmatched(spec: string): string {
  return `--redact ${spec}: no model has a readable, non-reference field "${spec}", and no copied document a key of that name`;
}

/** After the documents were prepared: a bare name that matched nothing at all is refused. */
export function checkRedactionMatched(plan: RedactionPlan, redactedKeys: ReadonlySet<string>): void {
  for (const spec of plan.documentOnly) {
    if (![...redactedKeys].some((key) => key.endsWith(`.${spec}`))) throw new RedactionError(unmatched(spec));
  }
}

export function planRedaction(ws: Workspace, specs: readonly string[]): RedactionPlan {
  const plan: RedactionPlan = { fields: new Map(), documentKeys: new Map(), listed: [], documentOnly: [] };
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
    const collections = isReservedKey(spec) ? [] : [...ws.collections.keys()];
    for (const collection of collections) addKey(collection, spec, false);
    if (!matched && collections.length === 0) throw new RedactionError(unmatched(spec));
    if (!matched) plan.documentOnly.push(spec);
  }
  return plan;
}
