/**
 * A clone job's status as the console's server (or main) answers it, checked before the dialog
 * shows it: an answer of another shape is a plain error, never a crash of the dialog.
 */
import type { CloneJobStatus, CloneProgress } from '../../../shared/clone.ts';

const STATES = new Set(['running', 'done', 'failed', 'cancelled']);

export function readCloneStatus(value: unknown): CloneJobStatus {
  if (typeof value !== 'object' || value === null) throw new Error('The copy is unknown to the console\'s server (was it restarted?).');
  const status = value as Record<string, unknown>;
  if (typeof status.state !== 'string' || !STATES.has(status.state)) throw new Error('The console\'s server answered the copy\'s status in a shape this console does not know.');
  const progress = readProgress(status.progress);
  if (status.state === 'done') {
    const connection = status.connection as Record<string, unknown> | undefined;
    if (typeof connection?.url !== 'string' || typeof connection.connectionId !== 'string' || typeof connection.name !== 'string') {
      throw new Error('The copy was made, but its server did not say where it listens.');
    }
  }
  if (status.state === 'failed' && typeof status.message !== 'string') return { state: 'failed', progress, message: 'The copy failed.' };
  return { ...(status as unknown as CloneJobStatus), progress };
}

function readProgress(value: unknown): CloneProgress {
  const p = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : 0);
  const models = Array.isArray(p.models)
    ? p.models
        .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && typeof (m as { namespace?: unknown }).namespace === 'string')
        .map((m) => ({ namespace: m.namespace as string, fetched: count(m.fetched), total: Math.max(count(m.total), count(m.fetched)) }))
    : [];
  const phases = ['schema', 'records', 'files', 'writing', 'done'] as const;
  const phase = phases.find((candidate) => candidate === p.phase) ?? 'records';
  const files = typeof p.files === 'object' && p.files !== null ? { done: count((p.files as { done?: unknown }).done), total: count((p.files as { total?: unknown }).total) } : undefined;
  return {
    phase,
    level: count(p.level),
    requests: count(p.requests),
    models,
    ...(files ? { files } : {}),
    ...(count(p.rateLimitedMs) > 0 ? { rateLimitedMs: count(p.rateLimitedMs) } : {}),
  };
}
