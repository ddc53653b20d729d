/**
 * One side of a diff: the document run on one connection like any run (its credentials, the SQL
 * count asked for), read into a DiffSide, and reported to the run log so the history records it.
 */
import { sideFromBody, sideFromFailure, type DiffSide } from '../features/diff/index.ts';
import { asksOnlyData } from '../state/run-query.ts';
import type { Services } from '../state/services.ts';
import { buildRunRequest } from '../transport/jql-client.ts';

export async function runSide(
  services: Pick<Services, 'connections' | 'platform' | 'runLog'>,
  connectionId: string,
  document: string,
  now: () => number = Date.now,
): Promise<DiffSide> {
  const connection = services.connections.get(connectionId);
  const target = services.connections.target(connectionId);
  const name = connection?.name ?? connectionId;
  if (!target) return sideFromFailure(name, 'The connection is gone.');
  const at = now();
  try {
    // Level 1 adds the SQL count and database time to the comparison.
    const response = await services.platform.transport.send(buildRunRequest(target, document, { queryInfoLevel: 1 }));
    const side = sideFromBody(name, response.status, response.timeMs, new TextDecoder().decode(response.body), { renderOnlyData: asksOnlyData(document) });
    if (side.view) services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'answered', status: side.status, timeMs: side.timeMs, size: side.size, view: side.view }, at });
    return side;
  } catch (err) {
    const message = (err as Error).message;
    services.runLog.record({ connection: { id: connectionId, name }, document, outcome: { kind: 'failed', message, timeMs: now() - at }, at });
    return sideFromFailure(name, message);
  }
}
