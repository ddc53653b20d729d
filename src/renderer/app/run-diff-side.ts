/**
 * One side of a diff: the document run on one connection like any run (its credentials, or another
 * identity's for "same connection, two users"; its `{{variables}}`; the SQL count asked for), read
 * into a DiffSide, and reported to the run log so the history records it. Diff never writes: a
 * document that would change data is not sent to either side, whatever the connections' kinds.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { sideFromBody, sideFromFailure, type DiffSide } from '../features/diff/index.ts';
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
  const target: ServerTarget = side.token === undefined ? own : identityTarget(own, side.token);
  const at = now();
  try {
    // Level 1 adds the SQL count and database time to the comparison.
    const response = await services.platform.transport.send(buildRunRequest(target, filled.text, { queryInfoLevel: 1 }));
    const result = sideFromBody(name, response.status, response.timeMs, new TextDecoder().decode(response.body), { renderOnlyData: asksOnlyData(filled.text) });
    if (result.view) services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'answered', status: result.status, timeMs: result.timeMs, size: result.size, view: result.view }, at });
    return result;
  } catch (err) {
    const message = (err as Error).message;
    services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'failed', message, timeMs: now() - at }, at });
    return sideFromFailure(name, message);
  }
}
