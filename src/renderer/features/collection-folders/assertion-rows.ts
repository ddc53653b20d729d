/**
 * The assertions table's rows: an assertion as the text the user types (the value as JSON text), and
 * back. A row that is not an assertion yet says why in one sentence (format.ts assertionProblem), so
 * Save is refused with the reason rather than writing a file the runner cannot read.
 */
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import type { JsonValue } from '../../../shared/protocol.ts';
import { assertionProblem, VALUELESS_OPERATORS, type Assertion, type AssertionOperator, type AssertionTarget } from '../../../shared/collections/format.ts';

export interface AssertionRow {
  target: AssertionTarget;
  /** JSONPath of a `path` target. */
  path: string;
  /** Error path of an `errorCode` target, as JSON text (`["filter","x"]`), or empty. */
  at: string;
  op: AssertionOperator;
  /** The value as JSON text; plain text that is not JSON is taken as a string. */
  value: string;
}

export function toRow(assertion: Assertion): AssertionRow {
  return {
    target: assertion.target,
    path: assertion.path ?? '',
    at: assertion.at ? JSON.stringify(assertion.at) : '',
    op: assertion.op,
    value: assertion.value === undefined ? '' : stringifyKeepingNumbers(assertion.value),
  };
}

/** Read keeping a 64-bit id's digits (shared/big-number.ts), as the request file is. */
function readValue(text: string): JsonValue {
  try {
    return parseJsonKeepingNumbers(text) as JsonValue;
  } catch {
    return text;
  }
}

export function fromRow(row: AssertionRow): { ok: true; assertion: Assertion } | { ok: false; problem: string } {
  const assertion: Assertion = { target: row.target, op: row.op };
  if (row.target === 'path') assertion.path = row.path.trim();
  if (row.target === 'errorCode' && row.at.trim() !== '') {
    const at = readValue(row.at);
    if (!Array.isArray(at)) return { ok: false, problem: 'the error path is a JSON array, e.g. ["filter", "priority"]' };
    assertion.at = at as Array<string | number>;
  }
  if (row.value.trim() !== '' || !VALUELESS_OPERATORS.has(row.op)) assertion.value = readValue(row.value);
  const problem = assertionProblem(assertion as unknown as Record<string, unknown>);
  return problem ? { ok: false, problem } : { ok: true, assertion };
}

export const EMPTY_ROW: AssertionRow = { target: 'status', path: '', at: '', op: 'eq', value: '200' };
