/**
 * Login throttling (docs/protocol.md "Authentication", always on), per (username, client) pair:
 * the first `freeFailures` - 1 failed logins cost nothing; from the `freeFailures`-th on each failure
 * doubles the wait before the pair may try again (30 s, 1 min, 2 min, … up to `maxWaitMs`, 15 min), so guessing stays slow. A pair is
 * forgotten `windowMs` after its wait ended with no new failure, and on a successful login.
 *
 * Who is "a client" (issue 30.9): every loopback address (127.0.0.0/8, ::1) is one client, else a
 * local process could dodge the throttle by rotating 127.x addresses. But on a loopback server every
 * caller is that one client, so failures from it must not lock the owner out: a browser that signed
 * in before holds a known-client cookie (auth/known-client.ts) bound to the username, and its
 * logins count as a client of their own. So the right password still signs in from a client that
 * has not failed.
 *
 * Memory is bounded: an LRU of at most `maxTracked` pairs, keyed by a hash so a long username costs no
 * more than a short one. An attacker who floods it with other pairs to push one out pays a full
 * password hash for each of those logins.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isLoopbackAddress } from '../http/loopback.ts';

export interface LoginThrottleOptions {
  /** Failures of a pair answered before the first wait (the last of them starts it). */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; it doubles with each further failure. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** How long after its wait ended a pair with no new failure is forgotten. */
  windowMs: number;
  maxTracked: number;
}

export const LOGIN_THROTTLE: LoginThrottleOptions = { freeFailures: 5, firstWaitMs: 30_000, maxWaitMs: 15 * 60_000, windowMs: 15 * 60_000, maxTracked: 50_000 };

interface PairFailures {
  count: number;
  /** When the pair may try again. */
  until: number;
}

export class LoginThrottle {
  private readonly failures: LRUCache<string, PairFailures>;
  private readonly options: LoginThrottleOptions;
  private readonly now: () => number;

  constructor(options: LoginThrottleOptions = LOGIN_THROTTLE, now: () => number = Date.now) {
    this.options = options;
    this.now = now;
    this.failures = new LRUCache({ max: options.maxTracked });
  }

  /** Seconds until this pair may try again; 0 when it may now. */
  retryAfter(client: string | undefined, username: string): number {
    const entry = this.current(keyOf(client, username));
    if (!entry || entry.until <= this.now()) return 0;
    return Math.max(1, Math.ceil((entry.until - this.now()) / 1000));
  }

  recordFailure(client: string | undefined, username: string): void {
    const key = keyOf(client, username);
    const count = (this.current(key)?.count ?? 0) + 1;
    const beyond = count - this.options.freeFailures;
    const wait = beyond < 0 ? 0 : Math.min(this.options.maxWaitMs, this.options.firstWaitMs * 2 ** Math.min(beyond, 40));
    this.failures.set(key, { count, until: this.now() + wait });
  }

  recordSuccess(client: string | undefined, username: string): void {
    this.failures.delete(keyOf(client, username));
  }

  /** How many pairs are tracked now (bounded by maxTracked). */
  get size(): number {
    return this.failures.size;
  }

  private current(key: string): PairFailures | undefined {
    const entry = this.failures.get(key);
    if (entry && entry.until + this.options.windowMs <= this.now()) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }
}

/**
 * The throttle's client for a peer address: every loopback address is one client (a process of this
 * machine can use any of 127.0.0.0/8 and ::1); `::ffff:` IPv4 addresses are their IPv4 form.
 */
export function throttleClient(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  if (isLoopbackAddress(address)) return 'loopback';
  return address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
}

// A caller without an address (a request injected in-process) counts as one client.
function keyOf(client: string | undefined, username: string): string {
  return createHash('sha256').update(client ?? 'unknown').update('\0').update(username).digest('base64url');
}
