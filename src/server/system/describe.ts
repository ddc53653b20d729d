/**
 * `system.Schema.describe` (docs/protocol.md "describe"): the workspace as the console needs it to build editor
 * completion and validation: apps, models with fields and lookups, controllers with intents,
 * collections, limits and the server version. It also says enough for `workspace from-describe` to
 * write the same schema back as a workspace file: hidden fields (apart from `fields`), extra
 * indexes, which required fields refuse the empty string, and which apps run hooks.
 */
import type { DescribeApp, DescribeField, DescribeResult, JsonValue, ProtocolExtension } from '../../shared/protocol.ts';
import { seeAsOffered } from '../auth/see-as.ts';
import { HOOK_NAMES, type ServerState } from '../context.ts';
import { lookupsFor } from '../query/filter.ts';
import type { FieldDef, Permissions } from '../workspace/types.ts';

const MODEL_INTENTS = ['retrieve', 'retrieveOne', 'count', 'create', 'update', 'delete'];

export function describeWorkspace(state: ServerState): DescribeResult {
  const { ws } = state;
  const apps: Record<string, DescribeApp> = {};
  const appOf = (name: string): DescribeApp => (apps[name] ??= { models: {}, controllers: {}, collections: {} });
  for (const model of ws.models.values()) {
    const fields: Record<string, DescribeField> = {};
    const hidden: Record<string, DescribeField> = {};
    for (const field of model.fields.values()) (field.hidden ? hidden : fields)[field.name] = describeField(field);
    appOf(model.app).models[model.name] = {
      fields,
      relations: Object.fromEntries([...model.relations.values()].map((r) => [r.name, { many: r.many, via: r.via }])),
      search: model.search,
      ordering: model.ordering,
      intents: MODEL_INTENTS,
      permissions: permissionsOf(model.permissions),
      ...(model.indexes.length > 0 ? { indexes: model.indexes } : {}),
      ...(Object.keys(hidden).length > 0 ? { hiddenFields: hidden } : {}),
    };
  }
  for (const app of ws.apps.values()) {
    const hooks = HOOK_NAMES.filter((hook) => state.hooks.has(app.name, hook));
    if (hooks.length > 0) appOf(app.name).hooks = hooks;
  }
  for (const collection of ws.collections.values()) {
    appOf(collection.app).collections[collection.name] = { intents: MODEL_INTENTS, permissions: permissionsOf(collection.permissions) };
  }
  for (const [key, controller] of state.controllers) {
    const [app, name] = key.split('.') as [string, string];
    // Every list is keyed by the canonical intent, the spelling the server reports intents in.
    appOf(app).controllers[name] = {
      intents: [...controller.handlers.keys()].sort(),
      permissions: { ...controller.permissions },
      ...(controller.files ? { files: Object.fromEntries([...controller.files].map(([intent, parts]) => [intent, [...parts]])) } : {}),
      ...(controller.readOnly.size > 0 ? { readOnly: [...controller.readOnly].sort() } : {}),
    };
  }
  // seeAs only where an admin may use it; whyNot explains the caller's own answers on any server.
  const extensions: ProtocolExtension[] = seeAsOffered(state) ? ['seeAs', 'whyNot'] : ['whyNot'];
  return { version: state.version, workspace: ws.name, mode: state.production ? 'production' : 'development', limits: ws.limits, apps, extensions };
}

function describeField(field: FieldDef): DescribeField {
  const out: DescribeField = { type: field.type, required: field.required, null: field.nullable, lookups: field.writeOnly || field.hidden ? [] : lookupsFor(field) };
  if (field.choices) out.choices = field.choices;
  if (field.to) out.to = field.to;
  if (field.default !== undefined) out.default = field.default;
  if (field.unique) out.unique = true;
  if (field.maxLength !== undefined) out.maxLength = field.maxLength;
  if (field.min !== undefined) out.min = field.min;
  if (field.max !== undefined) out.max = field.max;
  if (field.writeOnly) out.writeOnly = true;
  if (field.auto) out.auto = field.auto;
  if (field.protected) out.protected = true;
  if (field.strictRequired) out.notEmpty = true;
  return out;
}

function permissionsOf(permissions: Permissions | null): Record<string, JsonValue> {
  if (!permissions) return {};
  return { ...permissions.intents, ...(Object.keys(permissions.scope).length > 0 ? { scope: permissions.scope } : {}) };
}
