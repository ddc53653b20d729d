/**
 * Evaluates assertions and captures against one answer. An answer is read in either envelope shape
 * (docs/protocol.md "The envelope", "The flat shape") through the same keys; a `path` target is a JSONPath (jsonpath-plus, with
 * script filters turned off) into the standard envelope, so a request written for one shape checks
 * the same values in the other.
 */
import { JSONPath } from 'jsonpath-plus';
import { isBigNumber, parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../big-number.ts';
import type { JsonValue } from '../protocol.ts';
import { compareExact, isExactNumber } from './exact-number.ts';
import type { Assertion, Capture } from './format.ts';

export interface Answer {
  /** HTTP status, or 0 when no answer came. */
  status: number;
  /** The parsed body, or undefined when it was not JSON. */
  body: unknown;
  /**
   * The body's text as it came, when the sender has it: a snapshot is compared on this text read
   * with every number's digits kept (an id above 2^53 is not another id's double).
   */
  text?: string;
  /** Round-trip time in milliseconds. */
  roundTripMs: number;
}

export interface AssertionResult {
  assertion: Assertion;
  passed: boolean;
  /** The value the target had (undefined: absent). */
  actual: JsonValue | undefined;
  /** Why it failed, in a sentence; absent when it passed. */
  message?: string;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer as a standard envelope, whichever shape the server sent. */
export function standardEnvelope(body: unknown): Obj | null {
  if (!isObj(body)) return null;
  if ('__payload__' in body || '__errors__' in body) return body;
  if ('status' in body && ('data' in body || 'errors' in body)) {
    return {
      __payload__: body.data,
      __message__: body.message,
      __extras__: body.extras,
      __errors__: body.errors,
      __system__: body.system_info,
      __intent__: body.intent,
    };
  }
  return null;
}

/**
 * The value at a JSONPath of the envelope (docs/collections.md "Assertions"). The path's form decides
 * the shape, never the number of matches: a path that can match several values (a wildcard `*`,
 * `..`, a union `[0,1]`, a slice `[0:2]`, a filter) always gives the list of its matches, `[]` when
 * none; any other path gives the value itself, undefined when nothing is there. (jsonpath-plus's own
 * `wrap: false` gives `[5]` for one match through `[*]` but `5` for one match through `..`, and
 * undefined for none, so the same assertion passed or failed by how the path was written.)
 */
export function valueAt(body: unknown, path: string): JsonValue | undefined {
  const json = (standardEnvelope(body) ?? body) as JsonValue;
  const list = isListPath(path);
  if (json === undefined || json === null || typeof json !== 'object') return list ? [] : undefined;
  const matches = JSONPath({ path, json, wrap: true, eval: false }) as JsonValue[];
  return list ? matches : matches[0];
}

/** Python-style slice `[start:end:step]`, as jsonpath-plus reads one. */
const SLICE = /^(-?\d*):(-?\d*):?(\d*)$/u;

/** Whether a JSONPath can match more than one value by its form, whatever the answer holds. */
export function isListPath(path: string): boolean {
  return JSONPath.toPathArray(path).some(
    (step) => step === '*' || step === '..' || SLICE.test(step) || step.startsWith('?(') || (step.includes(',') && !step.startsWith('`')),
  );
}

function targetValue(assertion: Assertion, answer: Answer): JsonValue | undefined {
  const envelope = standardEnvelope(answer.body);
  const extras = isObj(envelope?.__extras__) ? envelope.__extras__ : {};
  switch (assertion.target) {
    case 'status':
      return answer.status;
    case 'roundTrip':
      return Math.round(answer.roundTripMs);
    case 'serverTime': {
      const system = envelope?.__system__;
      return isObj(system) && typeof system.time_ms === 'number' ? system.time_ms : undefined;
    }
    case 'payloadLength': {
      const payload = envelope ? envelope.__payload__ : answer.body;
      return Array.isArray(payload) ? payload.length : isObj(payload) ? Object.keys(payload).length : undefined;
    }
    case 'errorCode': {
      const errors = Array.isArray(envelope?.__errors__) ? (envelope.__errors__ as Obj[]) : [];
      const at = assertion.at;
      const error = at ? errors.find((e) => JSON.stringify(e.path) === JSON.stringify(at)) : errors[0];
      return typeof error?.code === 'string' ? error.code : error ? null : undefined;
    }
    case 'path':
      return valueAt(answer.body, assertion.path ?? '$');
    default: {
      const key = assertion.target.slice('extras.'.length);
      return (extras[key] as JsonValue | undefined) ?? undefined;
    }
  }
}

/**
 * The answer with every number as the digits the server sent (shared/big-number.ts), when its text
 * is at hand: read once per answer, then every assertion and capture compares those digits.
 */
export function keepingDigits(answer: Answer): Answer {
  if (answer.text === undefined || answer.body === undefined) return answer;
  try {
    return { ...answer, body: parseJsonKeepingNumbers(answer.text) };
  } catch {
    return answer;
  }
}

/** Equal as JSON values; numbers by their digits, so two ids above 2^53 are never one id. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isExactNumber(a) && isExactNumber(b)) return compareExact(a, b) === 0;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = Object.entries(a);
  const right = new Map(Object.entries(b));
  return left.length === right.size && left.every(([key, value]) => right.has(key) && same(value, right.get(key)));
}

/** a < b (negative), a = b (0), a > b (positive) for two numbers; null when either is not one. */
function order(a: unknown, b: unknown): number | null {
  return isExactNumber(a) && isExactNumber(b) ? compareExact(a, b) : null;
}

/** A plain string of the answer (a kept number is a number, not its marker text). */
const isText = (value: unknown): value is string => typeof value === 'string' && !isBigNumber(value);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isBigNumber(value)) return 'number';
  return typeof value;
}

const show = (value: unknown): string => (value === undefined ? 'nothing' : stringifyKeepingNumbers(value));

/**
 * Tests a `matches` pattern; throws an Error whose message says why it could not (the command line
 * bounds the time a pattern may take: server/collections/bounded-pattern.ts).
 */
export type PatternTest = (pattern: string, text: string) => boolean;

const plainPatternTest: PatternTest = (pattern, text) => new RegExp(pattern).test(text);

export function evaluateAssertion(assertion: Assertion, answer: Answer, patternTest: PatternTest = plainPatternTest): AssertionResult {
  let actual: JsonValue | undefined;
  try {
    actual = targetValue(assertion, answer);
  } catch (error) {
    // A JSONPath that cannot be read (a script filter, which is turned off): the assertion fails.
    return { assertion, passed: false, actual: undefined, message: `${describeTarget(assertion)} cannot be read: ${(error as Error).message}` };
  }
  const expected = assertion.value;
  let passed: boolean;
  try {
    passed = check(assertion, actual, patternTest);
  } catch (error) {
    return { assertion, passed: false, actual, message: `${describeTarget(assertion)}: ${(error as Error).message}` };
  }
  const result: AssertionResult = { assertion, passed, actual };
  if (!passed) result.message = `${describeTarget(assertion)} is ${show(actual)}; expected ${assertion.op}${expected === undefined ? '' : ` ${show(expected)}`}`;
  return result;
}

function check(assertion: Assertion, actual: JsonValue | undefined, patternTest: PatternTest): boolean {
  const expected = assertion.value;
  switch (assertion.op) {
    case 'eq':
      return same(actual, expected);
    case 'neq':
      return !same(actual, expected);
    case 'lt':
      return (order(actual, expected) ?? 0) < 0;
    case 'lte':
      return (order(actual, expected) ?? 1) <= 0;
    case 'gt':
      return (order(actual, expected) ?? 0) > 0;
    case 'gte':
      return (order(actual, expected) ?? -1) >= 0;
    case 'in':
      return Array.isArray(expected) && expected.some((item) => same(item, actual));
    case 'contains':
      if (isText(actual)) return isText(expected) && actual.includes(expected);
      return Array.isArray(actual) && actual.some((item) => same(item, expected));
    case 'matches':
      return isText(actual) && patternTest(expected as string, actual);
    case 'exists':
      return (actual !== undefined) === (expected ?? true);
    case 'isNull':
      return (actual === null) === (expected ?? true);
    case 'type':
      return actual !== undefined && typeOf(actual) === expected;
    case 'length':
      return (isText(actual) || Array.isArray(actual)) && actual.length === expected;
  }
}

export function describeTarget(assertion: Assertion): string {
  switch (assertion.target) {
    case 'path':
      return assertion.path ?? '$';
    case 'errorCode':
      return assertion.at ? `the error code at ${JSON.stringify(assertion.at)}` : 'the error code';
    case 'status':
      return 'the HTTP status';
    case 'serverTime':
      return 'the server time (ms)';
    case 'roundTrip':
      return 'the round trip (ms)';
    case 'payloadLength':
      return 'the payload length';
    default:
      return `__extras__.${assertion.target.slice('extras.'.length)}`;
  }
}

/** Captured variables, or the sentence saying which capture found nothing. */
export function capture(captures: readonly Capture[], answer: Answer): { values: Record<string, JsonValue>; missing: string[] } {
  const values: Record<string, JsonValue> = {};
  const missing: string[] = [];
  for (const { variable, path } of captures) {
    let value: JsonValue | undefined;
    try {
      value = valueAt(answer.body, path);
    } catch {
      value = undefined;
    }
    // A list path that matched nothing captured nothing either.
    if (value === undefined || (Array.isArray(value) && value.length === 0 && isListPath(path))) missing.push(`capture "${variable}": nothing at ${path}`);
    else values[variable] = value;
  }
  return { values, missing };
}
