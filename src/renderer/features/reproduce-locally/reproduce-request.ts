/**
 * The clone request "Reproduce locally" sends for a tab: its document (with the connection's
 * `{{variables}}` filled in, as a run would send it), the remote connection and its token, and the
 * choices of the dialog. Framework-free, so it is tested without a DOM.
 */
import { DEFAULT_CLONE_DEPTH, MAX_CLONE_DEPTH, type CloneRequest } from '../../../shared/clone.ts';
import type { JsonValue } from '../../../shared/protocol.ts';

export interface ReproduceChoices {
  depth: number;
  /** Comma-separated field names, as typed. */
  redact: string;
  withFiles: boolean;
}

export const DEFAULT_CHOICES: ReproduceChoices = { depth: DEFAULT_CLONE_DEPTH, redact: '', withFiles: false };
export const DEPTH_CHOICES: readonly number[] = Array.from({ length: Math.min(MAX_CLONE_DEPTH, 5) + 1 }, (_, i) => i);

/** The request, or the reason there is none (a document that is not JSON, a session connection). */
export function reproduceRequest(
  document: string,
  connection: { name: string; baseUrl: string; authClass: 'jwt' | 'session'; token: string | null },
  choices: ReproduceChoices,
): { ok: true; request: CloneRequest } | { ok: false; reason: string } {
  let query: JsonValue;
  try {
    // Only to check its shape: the text itself is sent, so its 64-bit ids keep their digits.
    query = JSON.parse(document) as JsonValue;
  } catch {
    return { ok: false, reason: 'The tab\'s document is not valid JSON: fix it first, the copy starts from its query.' };
  }
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return { ok: false, reason: 'The tab\'s document is not a query object.' };
  if (connection.authClass === 'session') {
    return { ok: false, reason: `${connection.name} signs in with a session cookie, which the copy cannot borrow: switch it to token (JWT) authentication to reproduce it locally.` };
  }
  return {
    ok: true,
    request: {
      url: connection.baseUrl,
      token: connection.token,
      query: document,
      depth: choices.depth,
      withFiles: choices.withFiles,
      redact: choices.redact.split(',').map((field) => field.trim()).filter(Boolean),
      name: `Local copy of ${connection.name}`,
    },
  };
}
