/**
 * "Why can't a user see this record?" from the Query view's table: the answer's own document, run
 * again on its connection as that user (`seeAs`) with `whyNot: {id}` added (docs/protocol.md "See as"
 * and "Why not"), through the same code as the Diff's "Why not?". Offered only where it can answer:
 * a single-query retrieve, on a connection whose describe declares both extensions.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import type { ExplainRecord } from '../features/envelope-viewer/record-actions.ts';
import type { RunDone } from '../state/results-store.ts';
import type { Services } from '../state/services.ts';
import { explainSide } from './run-diff-side.ts';

/** True when `text` is one query (not a multi-query) asking to retrieve. */
export function isSingleRetrieve(text: string | undefined): boolean {
  if (text === undefined) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const meta = (parsed as Record<string, unknown>).__meta__;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) && (meta as Record<string, unknown>).intent === 'retrieve';
}

/** Whether a describe declares what asking as another user needs. */
export function explainsAsOthers(describe: DescribeResult | null | undefined): boolean {
  const extensions = describe?.extensions ?? [];
  return extensions.includes('seeAs') && extensions.includes('whyNot');
}

/** The way to ask about the records of `run`, or null when its answer cannot be asked about. */
export function recordExplainer(
  services: Pick<Services, 'connections' | 'platform'> & Partial<Pick<Services, 'variables'>>,
  describeOf: (connectionId: string) => DescribeResult | null,
  run: Pick<RunDone, 'request'>,
): ExplainRecord | null {
  const { connectionId, body } = run.request;
  const describe = describeOf(connectionId);
  if (body === undefined || !isSingleRetrieve(body) || !explainsAsOthers(describe)) return null;
  return (user, id) => explainSide(services, { connectionId, seeAs: user, describe }, body, null, id);
}
