/**
 * Password verifications a request does before it takes the write gate (docs/protocol.md "Authentication"). A scrypt
 * costs tens of milliseconds; run inside the one write transaction it would hold every other write
 * on the server that long, and a stream of failed logins (an unknown user costs a full hash too)
 * would stall them all. So the request verifies each login's password against the committed hash
 * first, and the login inside the gate only looks the answer up: the same password against the same
 * stored hash. When the hash it finds there is another one (changed or created in between, or earlier
 * in the same multi-query), it verifies again against that one: correct first, fast in the common case.
 */
import { verifyPassword } from './password.ts';

export class PasswordChecks {
  /** Stored hash -> password -> whether they match: the answer depends on nothing else. */
  private readonly answers = new Map<string, Map<string, boolean>>();

  /** Verifies `password` against `stored` now and keeps the answer for `verify`. */
  async prepare(password: string, stored: string): Promise<void> {
    if (this.answers.get(stored)?.has(password)) return;
    const matches = await verifyPassword(password, stored);
    const byPassword = this.answers.get(stored) ?? new Map<string, boolean>();
    byPassword.set(password, matches);
    this.answers.set(stored, byPassword);
  }

  /** Whether `password` matches `stored`: the answer prepared before the gate, else verified now. */
  async verify(password: string, stored: string): Promise<boolean> {
    return this.answers.get(stored)?.get(password) ?? verifyPassword(password, stored);
  }
}
