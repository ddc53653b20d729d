/**
 * Shared by the hardening tests: how long they run (short in `npm test`, long behind `npm run soak -- --hardening`),
 * and the one rule every answer of the server must keep whatever it was sent: a JQL envelope whose
 * errors are documented codes answered with their own status, never a 500.
 */
import { expect } from 'vitest';
import { ERROR_STATUS, isErrorCode } from '../../shared/error-codes.ts';

/** `npm run soak -- --hardening` sets JQL_SOAK=1: the same tests, run longer. */
export const SOAK = process.env.JQL_SOAK === '1';

export function runs(short: number, soak: number): number {
  return SOAK ? soak : short;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Asserts the documented-error rule and returns the error codes (empty on success). */
export function expectDocumented(answer: Answer, what: string): string[] {
  expect(answer.status, `${what}: status`).not.toBe(500);
  const body = answer.body as Record<string, unknown> | null;
  expect(body && typeof body === 'object', `${what}: JSON envelope`).toBe(true);
  const errors = (body as { __errors__?: unknown }).__errors__;
  if (answer.status === 200) return errors === null || errors === undefined ? [] : (errors as Array<{ code: string }>).map((e) => e.code);
  expect(Array.isArray(errors) && errors.length > 0, `${what}: errors listed for ${answer.status}: ${JSON.stringify(body)}`).toBe(true);
  const codes = (errors as Array<{ code: unknown; message: unknown }>).map((error) => {
    expect(isErrorCode(error.code), `${what}: documented code ${String(error.code)}`).toBe(true);
    expect(typeof error.message, `${what}: message`).toBe('string');
    return error.code as string;
  });
  expect(answer.status, `${what}: status of ${codes[0]}`).toBe(ERROR_STATUS[codes[0] as keyof typeof ERROR_STATUS]);
  return codes;
}

export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
