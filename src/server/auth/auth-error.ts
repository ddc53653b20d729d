// Why a presented token was refused. identify() turns any of these into `unauthenticated` (401).
export type AuthFailure = 'malformed' | 'bad_signature' | 'expired' | 'revoked';

export class AuthError extends Error {
  readonly reason: AuthFailure;

  constructor(reason: AuthFailure, message: string) {
    super(message);
    this.name = 'AuthError';
    this.reason = reason;
  }
}
