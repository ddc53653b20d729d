/**
 * What the server's "why not" answers (docs/protocol.md "Why not"), read defensively: the reasons a
 * record is missing from one side of a diff, each a rule and a sentence.
 */
import type { JsonValue } from '../../../shared/protocol.ts';

export interface WhyNotReason {
  rule: string;
  message: string;
}

export type WhyNotResult = { visible: boolean; user: string | null; reasons: WhyNotReason[] } | { failure: string };

/** Explains why record `id` of `section` (null: a single query) is missing from the side `sideId`. */
export type ExplainMissing = (sideId: string, section: string | null, id: number) => Promise<WhyNotResult>;

export function readWhyNot(payload: JsonValue | undefined): WhyNotResult {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || !Array.isArray(payload.reasons)) {
    return { failure: 'The server did not answer with an explanation (does it declare the whyNot extension?).' };
  }
  const reasons = payload.reasons.flatMap((r): WhyNotReason[] =>
    r !== null && typeof r === 'object' && !Array.isArray(r) && typeof r.rule === 'string' && typeof r.message === 'string' ? [{ rule: r.rule, message: r.message }] : [],
  );
  return { visible: payload.visible === true, user: typeof payload.user === 'string' ? payload.user : null, reasons };
}
