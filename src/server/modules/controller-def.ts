/**
 * Reads a controller class's handlers and static maps (`permissions`, `files`, `readOnly`) once, at
 * start, under canonical intent keys (docs/protocol.md "Permissions and row scopes", "Processors"; `shared/intent-key.ts`). A map entry that is
 * not an intent name, names no handler, or collides with another spelling of the same intent stops
 * the start: left alone, such an entry would never apply, and the intent it meant to guard would
 * silently fall back to `authenticated`.
 */
import { handlerNameOf, intentKey, intentOfHandler } from '../../shared/intent-key.ts';
import type { ControllerClassLike, ControllerDef } from '../context.ts';

export class ControllerDefinitionError extends Error {
  constructor(namespace: string, problem: string) {
    super(`Controller ${namespace}: ${problem}`);
    this.name = 'ControllerDefinitionError';
  }
}

export function defineController(namespace: string, Class: ControllerClassLike): ControllerDef {
  const handlers = handlersOf(Class.prototype as object);
  const fail = (problem: string): never => {
    throw new ControllerDefinitionError(namespace, problem);
  };
  /** Re-keys one static map by canonical intent, refusing keys that cannot match a handler. */
  const canonical = <T>(map: Record<string, T> | undefined, what: string, check: (value: unknown) => value is T): Map<string, T> | null => {
    if (map === undefined || map === null) return null;
    if (typeof map !== 'object' || Array.isArray(map)) return fail(`static ${what} must be an object of intent -> list`);
    const out = new Map<string, T>();
    for (const [name, value] of Object.entries(map)) {
      const key = intentKey(name);
      if (key === null) fail(`static ${what} key "${name}" is not an intent name (camelCase or snake_case, e.g. uploadPackage)`);
      const intent = key as string;
      if (!handlers.has(intent)) fail(`static ${what} names "${name}", but the class has no ${handlerNameOf(intent)} method`);
      if (out.has(intent)) fail(`static ${what} lists "${intent}" twice (in two spellings)`);
      if (!check(value)) fail(`static ${what} entry "${name}" must be a list of strings`);
      out.set(intent, value);
    }
    return out;
  };
  const permissions = canonical(Class.permissions, 'permissions', isStringList);
  const files = canonical(Class.files, 'files', isStringList);
  const readOnly = new Set<string>();
  if (Class.readOnly !== undefined) {
    if (!isStringList(Class.readOnly)) fail('static readOnly must be a list of intent names');
    const listed = canonical(Object.fromEntries(Class.readOnly.map((name) => [name, true])), 'readOnly', (v): v is true => v === true);
    for (const key of listed?.keys() ?? []) readOnly.add(key);
  }
  return {
    namespace,
    Class,
    handlers,
    permissions: Object.fromEntries(permissions ?? []),
    files,
    readOnly,
  };
}

/** Canonical intent -> method, for every `on_<snake_case>` method up the prototype chain. */
function handlersOf(prototype: object): Map<string, string> {
  const handlers = new Map<string, string>();
  for (let proto: object | null = prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const method of Object.getOwnPropertyNames(proto)) {
      const intent = intentOfHandler(method);
      if (intent !== null && !handlers.has(intent) && typeof (prototype as Record<string, unknown>)[method] === 'function') handlers.set(intent, method);
    }
  }
  return handlers;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
