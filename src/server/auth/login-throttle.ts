/**
 * Login throttling (docs/protocol.md "Authentication", always on): after 5 failed logins for one username from one client
 * within 15 minutes, further logins for that username from that client are refused until the oldest
 * of those failures is 15 minutes old, even with the right password; other usernames and other
 * clients are not affected. A successful login clears the count.
 *
 * Memory is bounded: an LRU of at most `maxTracked` (client, username) pairs, keyed by a hash so a long
 * username costs no more than a short one. An attacker who floods it with other pairs to push one out
 * pays a full password hash for each of those logins.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface LoginThrottleOptions {
  maxFailures: number;
  windowMs: number;
  maxTracked: number;
}

export const LOGIN_THROTTLE: LoginThrottleOptions = { maxFailures: 5, windowMs: 15 * 60_000, maxTracked: 50_000 };

export class LoginThrottle {
  private readonly failures: LRUCache<string, number[]>;
  private readonly options: LoginThrottleOptions;
  private readonly now: () => number;

  constructor(options: LoginThrottleOptions = LOGIN_THROTTLE, now: () => number = Date.now) {
    this.options = options;
    this.now = now;
    this.failures = new LRUCache({ max: options.maxTracked });
  }

  /** Seconds until this pair may try again; 0 when it may now. */
  retryAfter(client: string | undefined, username: string): number {
    const recent = this.recent(keyOf(client, username));
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures] as number;
    return Math.max(1, Math.ceil((oldest + this.options.windowMs - this.now()) / 1000));
  }

  recordFailure(client: string | undefined, username: string): void {
    const key = keyOf(client, username);
    const recent = this.recent(key);
    recent.push(this.now());
    // Only the last few matter for the window.
    this.failures.set(key, recent.slice(-this.options.maxFailures));
  }

  recordSuccess(client: string | undefined, username: string): void {
    this.failures.delete(keyOf(client, username));
  }

  /** How many pairs are tracked now (bounded by maxTracked). */
  get size(): number {
    return this.failures.size;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.options.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }
}

// A caller without an address (a request injected in-process) counts as one client.
function keyOf(client: string | undefined, username: string): string {
  return createHash('sha256').update(client ?? 'unknown').update('\0').update(username).digest('base64url');
}
