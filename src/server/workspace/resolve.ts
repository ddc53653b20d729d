/**
 * Turns a workspace file (docs/workspace.md) into the validated `Workspace` registry. Everything is
 * checked here, once, so that nothing downstream reads raw JSON: any mistake is a WorkspaceError
 * naming the file, app, model and field at fault.
 */
import path from 'node:path';
import type { AppDef, CollectionDef, ModelDef, Workspace } from './types.ts';
import type { At } from './check.ts';
import { checkName, expectKeys, expectObject, expectStringArray, fail, show } from './check.ts';
import { WorkspaceError } from './errors.ts';
import { locateJsonError } from './json-error-position.ts';
import { FileReadError, readBoundedFile } from '../read-bounded-file.ts';
import { tooDeep } from '../../shared/json-depth.ts';
import { resolveLimits } from './limits.ts';
import { completeModel, createModel } from './resolve-model.ts';
import { resolvePermissions } from './resolve-permissions.ts';
import { SYSTEM_APP, SYSTEM_USER_KEY, SYSTEM_USER_MODEL, mergeSystemUser } from './system-user.ts';

const APP_KEYS = ['controllers', 'hooks', 'models', 'collections'] as const;

/** A workspace file larger than this is refused unread (docs/workspace.md "The workspace file"). */
export const MAX_WORKSPACE_FILE_BYTES = 10 * 1024 * 1024;

/** Reads and resolves a workspace file; a missing file or bad JSON is a WorkspaceError too. */
export function loadWorkspace(file: string): Workspace {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readBoundedFile(absolute, { maxBytes: MAX_WORKSPACE_FILE_BYTES, label: 'the file' });
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new WorkspaceError(/no such file/.test(error.message) ? 'file not found' : error.message, { file: absolute });
  }
  const deep = tooDeep(text, 'the file');
  if (deep !== null) throw new WorkspaceError(deep, { file: absolute });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // JSON.parse names a position for some mistakes only: the file is read again for the first one.
    const position = locateJsonError(text);
    if (position === null) throw new WorkspaceError(`not valid JSON: ${(error as Error).message}`, { file: absolute });
    throw new WorkspaceError(`not valid JSON: ${position.sentence}.`, { file: absolute, line: position.line, column: position.column });
  }
  return resolveWorkspace(raw, absolute);
}

/** `file`: the workspace file's path (relative module paths resolve against its folder), or null. */
export function resolveWorkspace(raw: unknown, file: string | null): Workspace {
  const at: At = { file };
  const root = expectObject(raw, at, 'the workspace');
  // `$schema` lets editors validate the file; `_notes` is a comment for people (`workspace
  // from-describe` lists there what it could not copy). Neither means anything to the server.
  expectKeys(root, ['$schema', '_notes', 'name', 'limits', 'allowSeeAs', 'apps'], at, 'the workspace');
  if (root.allowSeeAs !== undefined && typeof root.allowSeeAs !== 'boolean') fail(at, `"allowSeeAs" must be true or false, got ${show(root.allowSeeAs)}`);
  if (root._notes !== undefined && typeof root._notes !== 'string') expectStringArray(root._notes, at, '"_notes" (a comment: a string or an array of strings)');
  if (root.name !== undefined && (typeof root.name !== 'string' || root.name.length === 0)) fail(at, `"name" must be a non-empty string, got ${show(root.name)}`);
  const rawApps = root.apps === undefined ? {} : expectObject(root.apps, at, '"apps"');
  const baseDir = file === null ? process.cwd() : path.dirname(path.resolve(file));

  // Pass 1: app shapes and the set of model keys, which `ref` targets are checked against.
  const pending: Array<{ app: string; name: string; spec: Record<string, unknown>; at: At }> = [];
  const apps = new Map<string, AppDef>();
  const systemEntry = rawApps[SYSTEM_APP];
  apps.set(SYSTEM_APP, { name: SYSTEM_APP, models: new Map(), collections: new Map() });
  pending.push({ app: SYSTEM_APP, name: SYSTEM_USER_MODEL, spec: mergeSystemUser(systemUserOverride(systemEntry, file), file), at: { file, app: SYSTEM_APP, model: SYSTEM_USER_MODEL } });
  refuseCaseTwins([SYSTEM_APP, ...Object.keys(rawApps).filter((name) => name !== SYSTEM_APP)], at, 'apps', '');
  for (const [appName, rawApp] of Object.entries(rawApps)) {
    if (appName === SYSTEM_APP) continue;
    const appAt = { file, app: appName };
    checkName(appName, appAt, 'app');
    const spec = expectObject(rawApp, appAt, 'an app');
    expectKeys(spec, APP_KEYS, appAt, 'the app');
    const app: AppDef = { name: appName, models: new Map(), collections: new Map() };
    if (spec.controllers !== undefined) app.controllersPath = modulePath(spec.controllers, baseDir, appAt, 'controllers');
    if (spec.hooks !== undefined) app.hooksPath = modulePath(spec.hooks, baseDir, appAt, 'hooks');
    apps.set(appName, app);
    const rawModels = spec.models === undefined ? {} : expectObject(spec.models, appAt, '"models"');
    refuseCaseTwins([...Object.keys(rawModels), ...collectionNames(spec.collections)], appAt, 'models and collections', `${appName}.`);
    for (const [modelName, rawModel] of Object.entries(rawModels)) {
      const modelAt = { ...appAt, model: modelName };
      checkName(modelName, modelAt, 'model');
      pending.push({ app: appName, name: modelName, spec: expectObject(rawModel, modelAt, 'a model'), at: modelAt });
    }
  }
  const modelKeys = new Set(pending.map((p) => `${p.app}.${p.name}`));

  // Pass 2: fields. Pass 3: what refers to fields (relations, search, ordering, indexes, scopes).
  const models = new Map<string, ModelDef>();
  for (const p of pending) {
    const model = createModel(p.app, p.name, p.spec, p.at, modelKeys);
    models.set(model.key, model);
    apps.get(p.app)?.models.set(p.name, model);
  }
  const user = models.get(SYSTEM_USER_KEY) as ModelDef;
  const userFields = new Set([...user.fields.values()].filter((f) => !f.writeOnly && !f.hidden).map((f) => f.name));
  for (const p of pending) completeModel(models.get(`${p.app}.${p.name}`) as ModelDef, p.spec, p.at, models, userFields);

  const collections = new Map<string, CollectionDef>();
  for (const [appName, rawApp] of Object.entries(rawApps)) {
    if (appName === SYSTEM_APP) continue;
    const app = apps.get(appName) as AppDef;
    for (const collection of resolveCollections((rawApp as Record<string, unknown>).collections, app, file, userFields)) {
      app.collections.set(collection.name, collection);
      collections.set(collection.key, collection);
    }
  }

  return {
    name: (root.name as string | undefined) ?? 'workspace',
    file: file === null ? null : path.resolve(file),
    limits: resolveLimits(root.limits, at),
    ...(root.allowSeeAs === true ? { allowSeeAs: true } : {}),
    apps,
    models,
    collections,
  };
}

/**
 * SQLite's table names, and the file systems of macOS and Windows, do not tell `M` from `m`: two
 * names that differ only in case would break the start (issue 32.3), so the loader refuses them,
 * naming both, before anything is written.
 */
function refuseCaseTwins(names: readonly string[], at: At, what: string, prefix: string): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    const folded = name.toLowerCase();
    const twin = seen.get(folded);
    if (twin !== undefined && twin !== name) fail(at, `${what} "${prefix}${twin}" and "${prefix}${name}" differ only in case; names must differ in more than case`);
    seen.set(folded, name);
  }
}

function collectionNames(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.filter((name): name is string => typeof name === 'string');
  return raw !== null && typeof raw === 'object' ? Object.keys(raw) : [];
}

/** `apps.system` may only extend the built-in user: `{"models": {"User": {...}}}`. */
function systemUserOverride(entry: unknown, file: string | null): unknown {
  if (entry === undefined) return undefined;
  const at = { file, app: SYSTEM_APP };
  const spec = expectObject(entry, at, 'the system app');
  expectKeys(spec, ['models'], at, 'the built-in system app (it only takes "models": {"User": ...})');
  if (spec.models === undefined) return undefined;
  const models = expectObject(spec.models, at, '"models"');
  expectKeys(models, [SYSTEM_USER_MODEL], at, 'the built-in system app\'s "models" (only User can be extended)');
  return models[SYSTEM_USER_MODEL];
}

function modulePath(value: unknown, baseDir: string, at: At, key: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(at, `"${key}" must be a path to a JavaScript module, got ${show(value)}`);
  return path.resolve(baseDir, value);
}

function resolveCollections(raw: unknown, app: AppDef, file: string | null, userFields: ReadonlySet<string>): CollectionDef[] {
  if (raw === undefined) return [];
  const appAt = { file, app: app.name };
  let entries: Array<[string, unknown]>;
  if (Array.isArray(raw)) {
    entries = raw.map((name): [string, unknown] => {
      if (typeof name !== 'string') fail(appAt, `"collections" must list collection names, got ${show(name)}`);
      return [name, {}];
    });
  } else {
    entries = Object.entries(expectObject(raw, appAt, '"collections" (an array of names or an object)'));
  }
  const seen = new Set<string>();
  return entries.map(([name, rawSpec]) => {
    const at = { ...appAt, collection: name };
    checkName(name, at, 'collection');
    if (seen.has(name)) fail(at, 'is listed twice');
    seen.add(name);
    if (app.models.has(name)) fail(at, `has the name of a model of the same app (both would be ${app.name}.${name})`);
    const spec = expectObject(rawSpec, at, 'a collection');
    expectKeys(spec, ['permissions'], at, 'the collection');
    return { key: `${app.name}.${name}`, app: app.name, name, permissions: resolvePermissions(spec.permissions, at, { fields: null, userFields }) };
  });
}
