/**
 * Secrets out of what the console keeps on its own: a document recorded in the history has the
 * string values of its password, token and secret keys replaced, so a `system.User login` typed in
 * the editor never leaves its password on disk. It works on the text (the user's layout is kept)
 * and leaves everything else as written; re-running such a history entry asks for the value again.
 */
const SECRET_KEY = /^"([A-Za-z0-9_$-]*(?:password|passwd|secret|token|api[_-]?key|authorization)[A-Za-z0-9_$-]*)"$/i;

export const REDACTED = '(redacted)';

/** `"password": "hunter2"` -> `"password": "(redacted)"`, for every key that names a secret. */
export function redactSecrets(document: string): string {
  return document.replace(/("(?:[^"\\]|\\.)*")(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (whole, key: string, colon: string) =>
    SECRET_KEY.test(key) ? `${key}${colon}"${REDACTED}"` : whole,
  );
}
