/**
 * Reads a response body through the boundary: small bodies on the spot, bodies above the threshold
 * in a worker (parse.worker.ts) so the window stays responsive. The caller keeps the raw bytes as a
 * Blob for the raw view and for saving to a file. A worker that fails leaves a view that says so
 * (with the raw body still there), never a thrown error.
 */
import { DescribeAssembler, isDescribeSlice, type DescribeSliceMessage } from './describe-slices.ts';
import { textNestsDeeperThan } from './json-depth.ts';
import { notJsonView, type NormalizeHints } from './normalize-envelope.ts';
import type { ParseKind, ParseReply, ResponseHead, WorkerRequest } from './parse-protocol.ts';
import { putBackLongStrings } from './long-strings.ts';
import { registerLongTexts } from './long-text.ts';
import { readAnswer } from './read-answer.ts';
import type { ResultView } from './result-view.ts';
import type { DescribeRead } from './schema/describe-schema.ts';

/** Above this many bytes the body is parsed off the main thread. */
export const OFF_THREAD_THRESHOLD_BYTES = 256 * 1024;

export interface WorkerLike {
  postMessage(message: WorkerRequest, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ParseReply | DescribeSliceMessage>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

export interface ParseOptions {
  threshold?: number;
  /** Made lazily the first time a body is large; tests pass a fake, the app the real worker. */
  getWorker?: () => WorkerLike | null;
  /**
   * The caller needs the bytes no more (a describe's): they move to the worker as they are, not
   * copied first (a copy of 19 MB is a pause of its own on the window's thread). They read as empty after.
   */
  handOver?: boolean;
}

type Answer = Omit<Extract<ParseReply, { view: unknown }>, 'id'>;
/**
 * What a request waits for: the answer or a failure (of the parse, or of the worker's own fetch),
 * with the raw Blob when the worker made it and the response's head when the worker fetched it.
 */
export type Outcome = (Answer | { failure: string } | { fetchFailed: { cancelled: boolean; message: string } }) & { raw?: Blob; head?: ResponseHead };

let nextId = 1;
const pending = new Map<number, { done: (outcome: Outcome) => void; raw?: Blob; head?: ResponseHead }>();
/** The slices of a large describe received so far, by request (describe-slices.ts). */
const assembling = new Map<number, DescribeAssembler>();
const wired = new WeakSet<WorkerLike>();

function wire(worker: WorkerLike): void {
  if (wired.has(worker)) return;
  wired.add(worker);
  worker.addEventListener('message', (event: MessageEvent<ParseReply | DescribeSliceMessage>) => {
    const message = event.data;
    if (isDescribeSlice(message)) {
      if (!pending.has(message.id)) return;
      let assembler = assembling.get(message.id);
      if (!assembler) assembling.set(message.id, (assembler = new DescribeAssembler()));
      return assembler.add(message.slice);
    }
    const { id, ...reply } = message;
    const waiter = pending.get(id);
    if ('raw' in reply || 'head' in reply) {
      if (waiter) Object.assign(waiter, reply);
      return;
    }
    const assembler = assembling.get(id);
    assembling.delete(id);
    if (!waiter) return;
    pending.delete(id);
    if (assembler && 'view' in reply && reply.describe?.describe) reply.describe.describe = assembler.finish(reply.describe.describe);
    const finish = (outcome: Outcome) => waiter.done({ ...outcome, ...(waiter.raw ? { raw: waiter.raw } : {}), ...(waiter.head ? { head: waiter.head } : {}) });
    if ('view' in reply && reply.longTexts) {
      // Kept as code units for as long as the view lives: the views read pieces, nothing decodes them whole.
      registerLongTexts(reply.view, reply.longTexts);
      delete reply.longTexts;
    }
    if (!('longStrings' in reply) || !reply.longStrings) return finish(reply);
    // The long strings come as bytes: each decoded in a task of its own, the answer is handed on once whole again.
    const { longStrings, ...answer } = reply;
    void putBackLongStrings(answer as unknown as Record<string, unknown>, longStrings).then(
      () => finish(answer),
      (err: Error) => finish({ failure: `The answer could not be read (${err.message}).` }),
    );
  });
  worker.addEventListener('error', (event: ErrorEvent) => {
    for (const [id, waiter] of pending) {
      pending.delete(id);
      assembling.delete(id);
      waiter.done({ failure: `The answer could not be read (${event.message || 'the parse worker stopped'}).`, ...(waiter.raw ? { raw: waiter.raw } : {}), ...(waiter.head ? { head: waiter.head } : {}) });
    }
  });
}

/**
 * Sends the request `make` builds (with its id) to `worker`; `outcome` settles with its answer.
 * `forget` drops the request: the worker is told to stop it, and a later answer is ignored.
 */
export function ask(worker: WorkerLike, make: (id: number) => { message: WorkerRequest; transfer: Transferable[] }): { outcome: Promise<Outcome>; forget: () => void } {
  wire(worker);
  const id = nextId++;
  const { message, transfer } = make(id);
  const outcome = new Promise<Outcome>((done) => {
    pending.set(id, { done });
    worker.postMessage(message, transfer);
  });
  const forget = () => {
    if (!pending.delete(id)) return;
    assembling.delete(id);
    worker.postMessage({ id, abort: true }, []);
  };
  return { outcome, forget };
}

/** A worker made on first use by `make`; null where none can be made (tests, a strict CSP). */
function madeOnce(make: () => Worker): () => WorkerLike | null {
  let made: Worker | null | undefined;
  return () => {
    if (made !== undefined) return made;
    try {
      made = typeof Worker === 'function' ? make() : null;
    } catch {
      made = null;
    }
    return made;
  };
}

/** The app's parse worker: Runs' answers and large bodies. */
export const appParseWorker = madeOnce(() => new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'jql-parse' }));

/**
 * The describes' own worker (the same script). Reading a 100,000-model describe takes its worker a
 * second or more; in the Runs' worker a Run's answer waited behind it, and then landed on the window
 * together with the describe's work (issue 31, huge-describe). Apart, a Run never waits for a describe.
 */
export const appDescribeWorker = madeOnce(() => new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'jql-describe' }));

export function parsesOffThread(byteLength: number, threshold = OFF_THREAD_THRESHOLD_BYTES): boolean {
  return byteLength > threshold;
}

/**
 * `raw`: the caller hands its bytes over (they are transferred, not copied) and gets their Blob back,
 * made in the worker; without it the worker gets a copy and the caller keeps its bytes (unless
 * `options.handOver`).
 */
async function read(bytes: ArrayBuffer, httpStatus: number, hints: NormalizeHints, kind: ParseKind, options: ParseOptions, raw?: { type: string }): Promise<Answer & { raw?: Blob }> {
  // A small body nested too deep costs as much as a large one: it goes to the worker too.
  const offThread = parsesOffThread(bytes.byteLength, options.threshold) || textNestsDeeperThan(new Uint8Array(bytes));
  const worker = offThread ? (options.getWorker ?? appParseWorker)() : null;
  if (!worker) {
    const blob = raw ? { raw: new Blob([bytes], { type: raw.type }) } : {};
    try {
      return { ...readAnswer({ httpStatus, hints, kind }, new TextDecoder().decode(bytes)), ...blob };
    } catch (err) {
      return { view: notJsonView(httpStatus, `The answer could not be read (${(err as Error).message}).`), ...blob };
    }
  }
  // A copy goes to the worker (transferred), so the caller's buffer stays usable, unless it is handed over.
  const sent = raw || options.handOver ? bytes : bytes.slice(0);
  const reply = await ask(worker, (id) => ({ message: { id, buffer: sent, httpStatus, hints, kind, ...(raw ? { raw } : {}) }, transfer: [sent] })).outcome;
  if ('view' in reply) return reply;
  const failure = 'failure' in reply ? reply.failure : reply.fetchFailed.message;
  return { view: notJsonView(httpStatus, failure), ...(reply.raw ? { raw: reply.raw } : {}) };
}

/**
 * An answer to show with its raw bytes (the Run of an editor tab): the bytes are handed over, not
 * copied (a 50 MB answer would be copied twice on the window's thread, issue 31), and come back as
 * the raw Blob, the exact bytes the Raw view and "save" use. `bytes` cannot be read after the call.
 */
export async function parseRunBody(bytes: ArrayBuffer, httpStatus: number, hints: NormalizeHints, type: string, options: ParseOptions = {}): Promise<{ view: ResultView; raw: Blob }> {
  const { view, raw } = await read(bytes, httpStatus, hints, 'answer', options, { type });
  // Only a worker that stopped before it made the Blob leaves none: the view then says it failed.
  return { view, raw: raw ?? new Blob([], { type }) };
}

export async function parseResponseBody(bytes: ArrayBuffer, httpStatus: number, hints: NormalizeHints, options: ParseOptions = {}): Promise<ResultView> {
  return (await read(bytes, httpStatus, hints, 'answer', options)).view;
}

/** A system.Schema.describe answer: the view (for its errors) and the describe read from it. */
export interface DescribeParse {
  view: ResultView;
  describe: DescribeRead | null;
}

export async function parseDescribeBody(bytes: ArrayBuffer, httpStatus: number, options: ParseOptions = {}): Promise<DescribeParse> {
  const answer = await read(bytes, httpStatus, {}, 'describe', options);
  return { view: answer.view, describe: answer.describe ?? null };
}
