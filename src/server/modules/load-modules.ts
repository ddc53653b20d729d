/**
 * Loads the workspace apps' JavaScript modules (docs/workspace.md): each app's `controllers` module
 * exports controller classes by name, its `hooks` module exports the mutation hooks by name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ControllerClassLike, HookName, HookRunner, RequestContext } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { Workspace } from '../workspace/types.ts';

type HookFn = (event: HookEvent) => unknown;

/** What a hook receives: it may change `data` (before_create, before_update) or call `reject`. */
export interface HookEvent {
  model: string;
  hook: HookName;
  user: RequestContext['user'];
  data?: Record<string, JsonValue>;
  record?: JsonValue;
  reject(message: string, field?: string): never;
}

export async function loadControllers(ws: Workspace): Promise<Map<string, ControllerClassLike>> {
  const controllers = new Map<string, ControllerClassLike>();
  for (const app of ws.apps.values()) {
    if (!app.controllersPath) continue;
    const module = await importModule(app.controllersPath, `controllers of app "${app.name}"`);
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function') controllers.set(`${app.name}.${name}`, value as ControllerClassLike);
    }
  }
  return controllers;
}

export async function loadHooks(ws: Workspace): Promise<HookRunner> {
  const byApp = new Map<string, Record<string, unknown>>();
  for (const app of ws.apps.values()) {
    if (app.hooksPath) byApp.set(app.name, await importModule(app.hooksPath, `hooks of app "${app.name}"`));
  }
  const find = (app: string, hook: HookName): HookFn | undefined => {
    const fn = byApp.get(app)?.[hook];
    return typeof fn === 'function' ? (fn as HookFn) : undefined;
  };
  return {
    has: (app, hook) => find(app, hook) !== undefined,
    async run(ctx, model, hook, event) {
      const fn = find(model.split('.')[0] as string, hook);
      if (!fn) return;
      await fn({
        model,
        hook,
        user: ctx.user,
        ...event,
        reject(message, field) {
          throw new JqlFailure([jqlError('validation_error', message, field ? { field, path: [field] } : {})]);
        },
      });
    },
  };
}

async function importModule(path: string, what: string): Promise<Record<string, unknown>> {
  try {
    // The URL carries the file's digest: a changed file is a new module instance (serve --watch starts
    // again on it), an unchanged one is the module already loaded.
    const digest = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
    return (await import(`${pathToFileURL(path).href}?digest=${digest}`)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`Could not load the ${what} from ${path}: ${(error as Error).message}`, { cause: error });
  }
}
