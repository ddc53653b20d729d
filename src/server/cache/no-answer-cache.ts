/**
 * The answer cache of a server without shortcuts (StateOptions `shortcuts: false`): every read is a
 * miss and nothing is kept, so `cache: {"enabled": true}` answers what the plain read answers, with
 * `__extras__.cached: false`.
 */
import type { AnswerCacheLike, CacheRead } from '../context.ts';

const MISS: CacheRead = { hit: null, keep: () => undefined };

export const NO_ANSWER_CACHE: AnswerCacheLike = { open: () => MISS, forWorkspace: () => NO_ANSWER_CACHE };
