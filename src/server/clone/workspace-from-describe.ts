/**
 * A workspace file (docs/workspace.md) from a server's `system.Schema.describe` answer: the same apps,
 * models, fields and their options, relations, search fields, orderings, indexes, permissions,
 * collections and limits, so `serve --workspace` serves the same schema. Code cannot be copied:
 * controllers and hooks are listed in `"_notes"`, with anything else the local server could not take.
 *
 * The answer comes from another server and is not trusted: every value is checked for its shape
 * here, and the file is then run through the workspace loader itself before anyone sees it.
 */
import type { FieldType, JsonValue } from '../../shared/protocol.ts';
import { isPlainObject } from '../workspace/check.ts';
import { WorkspaceError } from '../workspace/errors.ts';
import { isFieldType } from '../workspace/field-codec.ts';
import { DEFAULT_LIMITS } from '../workspace/limits.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { COMMON_FIELD_OPTIONS, TYPE_OPTIONS } from '../workspace/resolve-field.ts';
import { PERMISSION_INTENTS } from '../workspace/resolve-permissions.ts';
import { SYSTEM_APP, SYSTEM_USER_FIELDS, SYSTEM_USER_MODEL } from '../workspace/system-user.ts';
import type { RawApp, RawField, RawModel, RawPermissions, WorkspaceFile } from '../workspace/types.ts';

/** Controllers every server has (docs/protocol.md "Authentication", "describe"): the local server brings its own. */
const BUILT_IN_CONTROLLERS = new Set(['system.Schema', 'system.User']);

export interface WorkspaceFromDescribe {
  workspace: WorkspaceFile;
  /** What the copy lacks, one sentence each (also in `workspace._notes`). */
  notes: string[];
  /** Controllers that exist on the source and not in the copy, as `<app>.<Name>`. */
  controllers: string[];
}

export class DescribeShapeError extends Error {
  override readonly name = 'DescribeShapeError';
}

type Obj = Record<string, unknown>;

/** `source` names where the describe came from, for the first note (a URL, never a credential). */
export function workspaceFromDescribe(describe: unknown, source: string): WorkspaceFromDescribe {
  if (!isPlainObject(describe) || !isPlainObject(describe.apps)) throw new DescribeShapeError('The describe answer has no "apps" object: is this a JQL server?');
  const notes: string[] = [];
  const controllers: string[] = [];
  const hooks: string[] = [];
  const apps: Record<string, RawApp> = {};
  for (const [appName, rawApp] of Object.entries(describe.apps)) {
    ownName(appName, `App "${appName}"`);
    if (!isPlainObject(rawApp)) throw new DescribeShapeError(`App "${appName}" of the describe answer is not an object`);
    for (const name of Object.keys(objectOr(rawApp.controllers))) {
      if (!BUILT_IN_CONTROLLERS.has(`${appName}.${name}`)) controllers.push(`${appName}.${name}`);
    }
    const appHooks = stringList(rawApp.hooks);
    if (appHooks.length > 0) hooks.push(`${appName} (${appHooks.join(', ')})`);
    const app = appName === SYSTEM_APP ? systemApp(rawApp, notes) : plainApp(appName, rawApp, notes);
    if (app) apps[appName] = app;
  }
  const describedControllers = controllers.map((key) => {
    const [app, name] = key.split('.') as [string, string];
    const intents = stringList(objectOr(objectOr(objectOr((describe.apps as Obj)[app]).controllers)[name]).intents);
    return intents.length > 0 ? `${key} (${intents.join(', ')})` : key;
  });
  const head = [`Written by jql-console workspace from-describe from ${source}.`];
  if (describedControllers.length > 0) head.push(`Controllers are code and were not copied; the source has: ${describedControllers.join('; ')}.`);
  if (hooks.length > 0) head.push(`Hooks are code and were not copied; the source runs: ${hooks.join('; ')}.`);
  if (describe.mode === 'production') head.push('The source runs in production mode: serve the copy with --production to match.');
  const limits = copyLimits(describe.limits, notes);
  const all = [...head, ...notes];
  const workspace: WorkspaceFile = {
    _notes: all,
    name: typeof describe.workspace === 'string' && describe.workspace.length > 0 ? describe.workspace : 'workspace',
    ...(limits ? { limits } : {}),
    apps,
  };
  try {
    resolveWorkspace(workspace, null);
  } catch (error) {
    if (error instanceof WorkspaceError) throw new DescribeShapeError(`The describe answer does not make a valid workspace: ${error.message}`);
    throw error;
  }
  return { workspace, notes: all, controllers };
}

function plainApp(appName: string, raw: Obj, notes: string[]): RawApp | null {
  const models: Record<string, RawModel> = {};
  for (const [name, model] of Object.entries(objectOr(raw.models))) models[ownName(name, `Model ${appName}.${name}`)] = copyModel(`${appName}.${name}`, objectOr(model), notes);
  const collections: Record<string, { permissions?: RawPermissions }> = {};
  for (const [name, collection] of Object.entries(objectOr(raw.collections))) {
    ownName(name, `Collection ${appName}.${name}`);
    const permissions = copyPermissions(objectOr(collection).permissions);
    collections[name] = permissions ? { permissions } : {};
  }
  const app: RawApp = {};
  if (Object.keys(models).length > 0) app.models = models;
  if (Object.keys(collections).length > 0) app.collections = collections;
  // An app with only controllers has nothing left to copy; its controllers are in the notes.
  return Object.keys(app).length > 0 ? app : null;
}

/** `system` may only extend the built-in User: its added fields and its permissions (docs/workspace.md). */
function systemApp(raw: Obj, notes: string[]): RawApp | null {
  const models = objectOr(raw.models);
  for (const name of Object.keys(models)) if (name !== SYSTEM_USER_MODEL) notes.push(`Model system.${name} was not copied: a workspace's system app holds only User.`);
  for (const name of Object.keys(objectOr(raw.collections))) notes.push(`Collection system.${name} was not copied: a workspace's system app holds only User.`);
  const user = objectOr(models[SYSTEM_USER_MODEL]);
  const copied = copyModel(`${SYSTEM_APP}.${SYSTEM_USER_MODEL}`, user, notes);
  const fields = Object.fromEntries(Object.entries(copied.fields ?? {}).filter(([name]) => !Object.hasOwn(SYSTEM_USER_FIELDS, name)));
  const entry: RawModel = {};
  if (Object.keys(fields).length > 0) entry.fields = fields;
  if (copied.permissions) entry.permissions = copied.permissions;
  return Object.keys(entry).length > 0 ? { models: { [SYSTEM_USER_MODEL]: entry } } : null;
}

function copyModel(key: string, raw: Obj, notes: string[]): RawModel {
  const fields: Record<string, RawField> = {};
  for (const [name, field] of Object.entries(objectOr(raw.fields))) fields[ownName(name, `Field ${key}.${name}`)] = copyField(`${key}.${name}`, objectOr(field), false, notes);
  for (const [name, field] of Object.entries(objectOr(raw.hiddenFields))) fields[ownName(name, `Field ${key}.${name}`)] = copyField(`${key}.${name}`, objectOr(field), true, notes);
  const model: RawModel = { fields };
  const relations: Record<string, { many: string; via: string }> = {};
  for (const [name, relation] of Object.entries(objectOr(raw.relations))) {
    const { many, via } = objectOr(relation);
    if (typeof many === 'string' && typeof via === 'string') relations[name] = { many, via };
  }
  if (Object.keys(relations).length > 0) model.relations = relations;
  // Search is written as described: the source's default (every string/text field) is then explicit.
  if (Array.isArray(raw.search)) model.search = stringList(raw.search);
  if (Array.isArray(raw.ordering) && raw.ordering.length > 0) model.ordering = stringList(raw.ordering);
  if (Array.isArray(raw.indexes) && raw.indexes.length > 0) model.indexes = raw.indexes.map(stringList);
  const permissions = copyPermissions(raw.permissions);
  if (permissions) model.permissions = permissions;
  return model;
}

function copyField(where: string, raw: Obj, hidden: boolean, notes: string[]): RawField {
  if (!isFieldType(raw.type)) throw new DescribeShapeError(`Field ${where} has type ${JSON.stringify(raw.type)}, which this server does not know`);
  const type: FieldType = raw.type;
  const field: RawField = { type };
  const allowed = new Set<string>([...COMMON_FIELD_OPTIONS, ...TYPE_OPTIONS[type]]);
  const set = (option: keyof RawField, value: unknown): void => {
    if (value === undefined || value === false) return;
    if (!allowed.has(option)) {
      notes.push(`Field ${where}: option "${option}" does not apply to type "${type}" here and was left out.`);
      return;
    }
    (field as unknown as Record<string, unknown>)[option] = value;
  };
  if (raw.null === true) field.null = true;
  if (Object.hasOwn(raw, 'default')) field.default = raw.default as JsonValue;
  if (raw.notEmpty === true) field.required = true;
  set('choices', Array.isArray(raw.choices) ? raw.choices : undefined);
  set('unique', raw.unique === true ? true : undefined);
  set('maxLength', typeof raw.maxLength === 'number' ? raw.maxLength : undefined);
  set('min', typeof raw.min === 'number' ? raw.min : undefined);
  set('max', typeof raw.max === 'number' ? raw.max : undefined);
  set('writeOnly', raw.writeOnly === true ? true : undefined);
  set('hidden', hidden ? true : undefined);
  set('auto', raw.auto === 'create' || raw.auto === 'update' ? raw.auto : undefined);
  set('protected', raw.protected === true ? true : undefined);
  set('to', typeof raw.to === 'string' ? raw.to : undefined);
  return field;
}

/** Roles per intent and row scopes; an empty object (no permissions declared) is left out. */
function copyPermissions(raw: unknown): RawPermissions | undefined {
  if (!isPlainObject(raw)) return undefined;
  const out: RawPermissions = {};
  for (const intent of PERMISSION_INTENTS) if (Array.isArray(raw[intent])) out[intent] = stringList(raw[intent]);
  if (isPlainObject(raw.scope) && Object.keys(raw.scope).length > 0) out.scope = raw.scope as RawPermissions['scope'];
  return Object.keys(out).length > 0 ? out : undefined;
}

function copyLimits(raw: unknown, notes: string[]): WorkspaceFile['limits'] | undefined {
  if (!isPlainObject(raw)) return undefined;
  const known = Object.keys(DEFAULT_LIMITS);
  const limits: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!known.includes(key)) notes.push(`Limit "${key}" (${JSON.stringify(value)}) is not one this server knows and was left out.`);
    else if (Number.isSafeInteger(value) && (value as number) > 0) limits[key] = value as number;
    // 0 means "off" for requestsPerMinute: the loader's default is off too.
  }
  return Object.keys(limits).length > 0 ? (limits as WorkspaceFile['limits']) : undefined;
}

/**
 * A name from the source that is an object's inherited key (`__proto__`) would vanish from the file
 * (or change its prototype) instead of being copied: it is refused, naming where it was.
 */
function ownName(name: string, where: string): string {
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') throw new DescribeShapeError(`${where} of the describe answer has a name no workspace can hold; it was not copied`);
  return name;
}

function objectOr(value: unknown): Obj {
  return isPlainObject(value) ? value : {};
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
