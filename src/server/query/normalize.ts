/**
 * camelCase -> snake_case normalization of keys (docs/protocol.md "The query document"). Only keys that name fields or
 * `__meta__` options are rewritten; values, and the content of `json` fields, never are.
 */
import { LRUCache } from 'lru-cache';
import type { JsonValue } from '../../shared/protocol.ts';

/**
 * Keys normalized before: requests name the same few keys again and again. The keys are request
 * text, so the cache is bounded by the characters it holds (not by a count, which long keys would
 * turn into megabytes each) and forgets the least recently used, so keys in use stay cached after a
 * flood of one-off keys.
 */
const MAX_CACHED_CHARS = 1024 * 1024;
/** A key longer than a field name is worth caching is normalized each time. */
const MAX_CACHED_KEY_CHARS = 256;
const snakeKeys = new LRUCache<string, string>({
  maxSize: MAX_CACHED_CHARS,
  maxEntrySize: MAX_CACHED_KEY_CHARS * 2,
  sizeCalculation: (snake, key) => key.length + snake.length,
});

/** `firstName` -> `first_name`, `uniqueObject` -> `unique_object`; snake_case passes through. */
export function snakeKey(key: string): string {
  if (!/[A-Z]/.test(key)) return key;
  let snake = snakeKeys.get(key);
  if (snake === undefined) {
    snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
    snakeKeys.set(key, snake);
  }
  return snake;
}

/** The characters the key cache holds (its bound is MAX_CACHED_CHARS). */
export function cachedKeyChars(): number {
  return snakeKeys.calculatedSize;
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
