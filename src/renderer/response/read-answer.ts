/**
 * What the parse worker and the main thread both run on a body: the /jql boundary
 * (normalize-envelope.ts) and, for a describe answer, the describe boundary on its payload. The
 * describe's payload is dropped from the view once read: the DescribeResult is what is kept, and a
 * 19 MB payload should not cross from the worker twice.
 */
import { normalizeText } from './normalize-envelope.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { readDescribe } from './schema/describe-schema.ts';

export function readAnswer(request: Omit<ParseRequest, 'buffer' | 'id'>, text: string): Omit<Extract<ParseReply, { view: unknown }>, 'id'> {
  const view = normalizeText(text, request.httpStatus, request.hints);
  if (request.kind !== 'describe') return { view };
  const section = view.sections[0];
  if (!section || view.failed) return { view };
  const describe = readDescribe(section.payload);
  return { view: { ...view, sections: [{ ...section, payload: null }] }, describe };
}
