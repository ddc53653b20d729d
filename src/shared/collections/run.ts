/**
 * Runs the requests of a collection in order against one server, the same way in the console and in
 * `jql-console run`: fill each document's `{{variables}}` from the environment and the captures so
 * far, send it, check its assertions, store its captures. A request that cannot be sent (an unknown
 * variable, a document that is not JSON, a network failure) fails with the reason; nothing throws.
 */
import { isBigNumber, parseJsonKeepingNumbers } from '../big-number.ts';
import type { JsonValue } from '../protocol.ts';
import { substituteVariables } from '../variables.ts';
import { capture, evaluateAssertion, keepingDigits, type Answer, type AssertionResult, type PatternTest } from './assertions.ts';
import type { RequestFile, RequestOptions } from './format.ts';
import { compareSnapshot, snapshotOf, type Redaction, type SnapshotChange } from './snapshot.ts';

export interface RunnableRequest {
  /** Path of the request file inside the collection, with `/` separators. */
  path: string;
  name: string;
  file: RequestFile;
  /** Present when the request carries a snapshot: the approved one, or null when none is approved yet. */
  snapshot?: { approved: JsonValue | null };
}

/** How a request's answer compared with its approved snapshot (docs/collections.md "Snapshots"). */
export interface SnapshotOutcome {
  /** `updated`: it differed (or was missing) and the run was asked to approve what came. */
  state: 'matched' | 'differs' | 'missing' | 'updated';
  changes: SnapshotChange[];
  /** The new answer as a snapshot holds it: what "approve" writes. */
  actual: JsonValue;
}

export interface OutgoingRequest {
  /**
   * The filled-in document. A number a double cannot hold (a 64-bit id) is kept as its digits
   * (shared/big-number.ts): a sender writes it with stringifyKeepingNumbers, never JSON.stringify.
   */
  document: JsonValue;
  options: Omit<RequestOptions, 'bearer'>;
  /** The filled-in bearer token, when the request names one. */
  bearer?: string;
}

/** Sends one request and answers what came back (status 0 and an error when nothing did). */
export type SendRequest = (request: OutgoingRequest) => Promise<Answer & { error?: string }>;

export interface RequestResult {
  path: string;
  name: string;
  /** True when it was answered and every assertion passed. */
  passed: boolean;
  status: number;
  roundTripMs: number;
  assertions: AssertionResult[];
  /** Why the request failed as a whole (not sent, or a capture found nothing). */
  error?: string;
  /** The answer's body, for the console to show. */
  body?: unknown;
  snapshot?: SnapshotOutcome;
}

export interface RunOptions {
  variables: Record<string, JsonValue>;
  send: SendRequest;
  /** Stop at the first failed request. */
  bail?: boolean;
  /** `variables`: every variable as it is after this request's captures (the CLI hides secret ones). */
  onResult?(result: RequestResult, variables: Readonly<Record<string, JsonValue>>): void;
  /** How `matches` patterns are tested (the command line bounds their time). */
  patternTest?: PatternTest;
  /** Checked before each request: a cancelled run stops there. */
  cancelled?(): boolean;
  /** Secret values, each replaced by its variable's name in snapshots. */
  redactions?: readonly Redaction[];
  /** Approve every snapshot that differs or is missing (`--update-snapshots`): it passes as `updated`. */
  updateSnapshots?: boolean;
}

export interface RunReport {
  results: RequestResult[];
  passed: number;
  failed: number;
  /** Requests not run because of --bail or a cancel. */
  skipped: number;
  totalMs: number;
  /** Every variable at the end of the run: the environment's and the captured ones. */
  variables: Record<string, JsonValue>;
}

function fill(text: string, variables: Record<string, JsonValue>): { ok: true; text: string } | { ok: false; error: string } {
  const substituted = substituteVariables(text, variables);
  if (!substituted.ok) return { ok: false, error: substituted.errors.map((e) => e.message).join('; ') };
  return { ok: true, text: substituted.text };
}

export async function runRequests(requests: readonly RunnableRequest[], options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const variables = { ...options.variables };
  const results: RequestResult[] = [];
  for (const request of requests) {
    if (options.cancelled?.() || (options.bail && results.some((r) => !r.passed))) break;
    const result = await runOne(request, variables, options);
    results.push(result);
    options.onResult?.(result, variables);
  }
  const passed = results.filter((r) => r.passed).length;
  return { results, passed, failed: results.length - passed, skipped: requests.length - results.length, totalMs: Date.now() - started, variables };
}

async function runOne(request: RunnableRequest, variables: Record<string, JsonValue>, options: RunOptions): Promise<RequestResult> {
  const { send } = options;
  const base = { path: request.path, name: request.name, status: 0, roundTripMs: 0, assertions: [] as AssertionResult[] };
  const document = fill(request.file.document, variables);
  if (!document.ok) return { ...base, passed: false, error: document.error };
  let parsed: JsonValue;
  try {
    // Not JSON.parse: a filter on id 9007199254740993 must not be sent as 9007199254740992.
    parsed = parseJsonKeepingNumbers(document.text) as JsonValue;
  } catch (error) {
    return { ...base, passed: false, error: `The document is not JSON once its variables are filled: ${(error as Error).message}` };
  }
  const { bearer: bearerText, ...rest } = request.file.options;
  const outgoing: OutgoingRequest = { document: parsed, options: rest };
  if (bearerText !== undefined) {
    const bearer = fill(JSON.stringify(bearerText), variables);
    if (!bearer.ok) return { ...base, passed: false, error: bearer.error };
    const token = JSON.parse(bearer.text) as JsonValue;
    outgoing.bearer = typeof token === 'string' ? token : JSON.stringify(token);
  }
  const answer = await send(outgoing);
  if (answer.error !== undefined) return { ...base, passed: false, status: answer.status, roundTripMs: answer.roundTripMs, error: answer.error };
  // Checked, captured and snapshotted on the digits sent: an assertion on id 9007199254740993 does not
  // pass on …992, and a 64-bit id used by a later request is that id, not a rounded one.
  const kept = keepingDigits(answer);
  const assertions = request.file.assertions.map((assertion) => evaluateAssertion(assertion, kept, options.patternTest));
  const captured = capture(request.file.captures, kept);
  Object.assign(variables, captured.values);
  const snapshot = request.snapshot ? compareWithSnapshot(request, kept.body, variables, options) : undefined;
  const result: RequestResult = {
    ...base,
    status: answer.status,
    roundTripMs: answer.roundTripMs,
    assertions,
    body: answer.body,
    passed: assertions.every((a) => a.passed) && captured.missing.length === 0 && (snapshot === undefined || snapshot.state === 'matched' || snapshot.state === 'updated'),
  };
  if (snapshot) result.snapshot = snapshot;
  if (captured.missing.length > 0) result.error = captured.missing.join('; ');
  return result;
}

/**
 * The answer against the request's approved snapshot. Captured values (a token the run signed in for)
 * are redacted like secrets: they differ on every run and must never be written into a file.
 */
function compareWithSnapshot(request: RunnableRequest, body: unknown, variables: Record<string, JsonValue>, options: RunOptions): SnapshotOutcome {
  const capturedNames = new Set(request.file.captures.map((c) => c.variable));
  // A captured 64-bit id (held as its digits, shared/big-number.ts) is a number, shown as it came, like any id.
  const captured: Redaction[] = Object.entries(variables).flatMap(([variable, value]) =>
    typeof value === 'string' && (capturedNames.has(variable) || value.length >= 16) && !isBigNumber(value) ? [{ variable, value: value as string }] : [],
  );
  const actual = snapshotOf(body, request.file.snapshot ?? {}, [...(options.redactions ?? []), ...captured]);
  const approved = request.snapshot?.approved ?? null;
  const changes = approved === null ? [] : compareSnapshot(approved, actual, request.file.snapshot ?? {});
  const state = approved === null ? 'missing' : changes.length === 0 ? 'matched' : 'differs';
  return { state: state !== 'matched' && options.updateSnapshots ? 'updated' : state, changes, actual };
}
