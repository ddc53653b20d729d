/**
 * camelCase -> snake_case normalization of keys (PROTOCOL.md 2). Only keys that name fields or
 * `__meta__` options are rewritten; values, and the content of `json` fields, never are.
 */
import type { JsonValue } from '../../shared/protocol.ts';

const cache = new Map<string, string>();

/** `firstName` -> `first_name`, `uniqueObject` -> `unique_object`; snake_case passes through. */
export function snakeKey(key: string): string {
  let snake = cache.get(key);
  if (snake === undefined) {
    snake = /[A-Z]/.test(key) ? key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase() : key;
    if (cache.size < 10_000) cache.set(key, snake);
  }
  return snake;
}

/** A field path with an optional lookup and `-` prefix: each segment is normalized, separators kept. */
export function snakePath(path: string): string {
  if (!/[A-Z]/.test(path)) return path;
  const descending = path.startsWith('-');
  const body = descending ? path.slice(1) : path;
  const normalized = body
    .split('.')
    .map((part) => part.split('__').map(snakeKey).join('__'))
    .join('.');
  return descending ? `-${normalized}` : normalized;
}

export function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Re-keys an object's own keys with `map`, keeping values as they are. */
export function mapKeys(object: Record<string, JsonValue>, map: (key: string) => string): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(object)) defineKey(out, map(key), value);
  return out;
}

/** Sets a key without going through `__proto__` setters: request keys are data, never prototypes. */
export function defineKey(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  // `__proto__` is the one accessor plain objects inherit; every other key is a plain assignment,
  // which V8 keeps on its fast path (defineProperty on each request key is measurably slower).
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Normalizes a read selection: keys at every level are field names. */
export function snakeSelection(selection: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(selection)) {
    defineKey(out, snakeKey(key), isPlainObject(value) ? snakeSelection(value) : value);
  }
  return out;
}
