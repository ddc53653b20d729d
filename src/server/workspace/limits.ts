/**
 * The workspace's `limits` (docs/workspace.md, docs/protocol.md "`__meta__` keys", "Errors", "Multipart uploads"): every key with its default, and
 * the checks that keep a set of limits coherent. The processors, routes and describe read the
 * resolved values from `Workspace.limits`; nothing else holds a default.
 */
import type { At } from './check.ts';
import { expectKeys, expectObject, fail, show } from './check.ts';
import type { Limits } from './types.ts';

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = {
  defaultLimit: 100,
  maxLimit: 1000,
  maxFileBytes: 100 * MiB,
  maxBodyBytes: 10 * MiB,
  // A multi-query holds at most this many subqueries.
  maxQueriesPerRequest: 64,
  // A `json`, `text` or `string` value (and a NoSQL document) once serialized.
  maxValueBytes: 1 * MiB,
  // What one answer may hold, counted while it is read: past it, payload_too_large.
  maxAnswerBytes: 64 * MiB,
  // Records of a reverse relation per parent record; the rest are left out with a notice.
  maxNested: 100,
  // The whole multipart body of a PUT /jql.
  maxUploadBytes: 1024 * MiB,
  maxStreamEvents: 10_000,
  cacheEntries: 1000,
  // The retrieve cache holds at most this many characters of serialized answers (and keys).
  cacheBytes: 64 * MiB,
  // 0: no rate limit (the default); a positive number caps JQL requests per client per minute.
  requestsPerMinute: 0,
  // Answers written and not yet read by their clients, all requests together: past it, 503 server_busy.
  heldAnswerBytes: 256 * MiB,
};

/** Limits that may be 0 (off); every other one is a positive integer. */
const MAY_BE_ZERO = new Set<keyof Limits>(['requestsPerMinute']);

/** Pairs that must be ordered: a `small` above its `large` could never take effect, or traps data. */
const ORDERED: Array<{ small: keyof Limits; large: keyof Limits; why: string }> = [
  { small: 'defaultLimit', large: 'maxLimit', why: 'the default page would always be clamped' },
  { small: 'maxFileBytes', large: 'maxUploadBytes', why: 'a file that large could never arrive in an upload' },
  { small: 'maxValueBytes', large: 'maxAnswerBytes', why: 'a value that large could be written but never read back' },
  { small: 'maxAnswerBytes', large: 'heldAnswerBytes', why: 'an answer that large could never be sent' },
];

export function resolveLimits(raw: unknown, at: At): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  if (raw === undefined) return limits;
  const spec = expectObject(raw, at, '"limits"');
  const keys = Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>;
  expectKeys(spec, keys, at, '"limits"');
  for (const key of keys) {
    const value = spec[key];
    if (value === undefined) continue;
    const least = MAY_BE_ZERO.has(key) ? 0 : 1;
    if (!Number.isSafeInteger(value) || (value as number) < least) {
      fail(at, `limit "${key}" must be ${least === 0 ? 'an integer >= 0' : 'a positive integer'}, got ${show(value)}`);
    }
    limits[key] = value as number;
  }
  for (const { small, large, why } of ORDERED) {
    if (limits[small] > limits[large]) fail(at, `limit "${small}" (${limits[small]}) is above "${large}" (${limits[large]}): ${why}`);
  }
  return limits;
}
