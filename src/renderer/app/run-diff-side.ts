/**
 * One side of a diff: the document run on one connection like any run (its credentials, or another
 * identity's for "same connection, two users"; its `{{variables}}`; the SQL count asked for), read
 * into a DiffSide, and reported to the run log so the history records it. Diff never writes: a
 * document that would change data is not sent to either side, whatever the connections' kinds.
 */
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';
import type { DescribeResult, JsonValue } from '../../shared/protocol.ts';
import { readWhyNot, sideFromBody, sideFromFailure, type DiffSide, type WhyNotResult } from '../features/diff/index.ts';
import { withMetaKeys } from '../transport/document-meta.ts';
import { asksOnlyData } from '../state/run-query.ts';
import { classifyDocument } from '../state/safety/classify-document.ts';
import { refuseInDiff } from '../state/safety/write-guard.ts';
import type { Services } from '../state/services.ts';
import { substituteVariables } from '../state/variables.ts';
import { buildRunRequest, type ServerTarget } from '../transport/jql-client.ts';

/**
 * A target that runs as a diff identity on `own`'s server: its token (null: anonymous) instead of the
 * connection's credential. The page got that token by signing in for the diff; in the desktop app
 * main adds nothing to such a request and uses no cookie jar, so no credential of the connection
 * rides along, and it still goes to the connection's origin only.
 */
export function identityTarget(own: ServerTarget, token: string | null): ServerTarget {
  return { connectionId: own.connectionId, baseUrl: own.baseUrl, authClass: 'jwt', token, heldCredential: false };
}

export interface DiffSideTarget {
  connectionId: string;
  /** Shown for the side; the connection's name when absent. */
  label?: string;
  /** Run as this bearer token (null: anonymous) instead of the connection's own sign-in. */
  token?: string | null;
  /** The connection's describe, for the controller intents it declares read-only. */
  describe?: DescribeResult | null;
  /** Run as this user through the connection's own (admin) sign-in: docs/protocol.md "See as". */
  seeAs?: string;
}

/** The document with the side's `seeAs` in its request meta, or why it cannot carry one. */
function asSide(text: string, side: DiffSideTarget): { ok: true; text: string } | { ok: false; message: string } {
  if (side.seeAs === undefined) return { ok: true, text };
  const withUser = withMetaKeys(text, { seeAs: side.seeAs });
  return withUser === null ? { ok: false, message: 'The document is not a JSON object, so it cannot run as another user.' } : { ok: true, text: withUser };
}

export async function runSide(
  services: Pick<Services, 'connections' | 'platform' | 'runLog'> & Partial<Pick<Services, 'variables'>>,
  side: DiffSideTarget,
  document: string,
  now: () => number = Date.now,
): Promise<DiffSide> {
  const { connectionId } = side;
  const connection = services.connections.get(connectionId);
  const own = services.connections.target(connectionId);
  const name = side.label ?? connection?.name ?? connectionId;
  if (!own) return sideFromFailure(name, 'The connection is gone.');
  const filled = substituteVariables(document, services.variables?.variables(connectionId) ?? {});
  if (!filled.ok) return sideFromFailure(name, filled.errors.map((e) => e.message).join('\n'));
  const refusal = refuseInDiff(classifyDocument(filled.text, side.describe ?? null));
  if (refusal) return sideFromFailure(name, refusal);
  const sent = asSide(filled.text, side);
  if (!sent.ok) return sideFromFailure(name, sent.message);
  const target: ServerTarget = side.token === undefined ? own : identityTarget(own, side.token);
  const at = now();
  try {
    // Level 1 adds the SQL count and database time to the comparison.
    const response = await services.platform.transport.send(buildRunRequest(target, sent.text, { queryInfoLevel: 1 }));
    const result = sideFromBody(name, response.status, response.timeMs, new TextDecoder().decode(response.body), { renderOnlyData: asksOnlyData(filled.text) });
    if (result.view) services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'answered', status: result.status, timeMs: result.timeMs, size: result.size, view: result.view }, at });
    return result;
  } catch (err) {
    const message = (err as Error).message;
    services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'failed', message, timeMs: now() - at }, at });
    return sideFromFailure(name, message);
  }
}

/**
 * Why record `id` of `section` (a multi-query's key, null for a single query) is not in the answer of
 * one side: the same document, as the same identity, with `whyNot` added (docs/protocol.md "Why not").
 * It reads nothing else and writes nothing; it is not recorded in the history.
 */
export async function explainSide(
  services: Pick<Services, 'connections' | 'platform'> & Partial<Pick<Services, 'variables'>>,
  side: DiffSideTarget,
  document: string,
  section: string | null,
  id: number,
): Promise<WhyNotResult> {
  const own = services.connections.target(side.connectionId);
  if (!own) return { failure: 'The connection is gone.' };
  const filled = substituteVariables(document, services.variables?.variables(side.connectionId) ?? {});
  if (!filled.ok) return { failure: filled.errors.map((e) => e.message).join('\n') };
  const sent = asSide(filled.text, side);
  const asked = sent.ok ? withMetaKeys(sent.text, { whyNot: { id } }, section ?? undefined) : null;
  if (asked === null) return { failure: sent.ok ? 'The document is not a JSON object.' : sent.message };
  const target: ServerTarget = side.token === undefined ? own : identityTarget(own, side.token);
  const response = await services.platform.transport.send(buildRunRequest(target, asked, { queryInfoLevel: 0 }));
  const body = envelopeOf(response.body);
  if (body === null) return { failure: `The server answered ${response.status} with something that is not JSON.` };
  const errors = body.__errors__ ?? [];
  if (errors.length > 0) return { failure: errors.map((e) => e.message ?? 'error').join('; ') };
  const payload = body.__payload__;
  if (section === null) return readWhyNot(payload);
  const sub = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload[section] : undefined;
  const subErrors = sub !== null && typeof sub === 'object' && !Array.isArray(sub) && Array.isArray(sub.errors) ? sub.errors : [];
  if (subErrors.length > 0) return { failure: subErrors.map((e) => (e !== null && typeof e === 'object' && !Array.isArray(e) ? String(e.message) : 'error')).join('; ') };
  return readWhyNot(sub !== null && typeof sub === 'object' && !Array.isArray(sub) ? sub.data : undefined);
}

type Answered = { __payload__?: JsonValue; __errors__?: Array<{ message?: string }> | null };

function envelopeOf(bytes: ArrayBuffer): Answered | null {
  try {
    const parsed: unknown = parseJsonKeepingNumbers(new TextDecoder().decode(bytes));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Answered) : null;
  } catch {
    return null;
  }
}
