/**
 * Fetches sets of records in as few requests as the source allows: every read of a level goes into
 * one multi-query (docs/protocol.md "Multi-query"), as many subqueries per request as the source takes, each asking
 * for a page of its source's maximum size in `id` order; the reads whose records did not fit come
 * back in the next request with the next offset. So a level costs one request, plus one per extra
 * page of its largest read, however many records it holds. An answer too large for the source
 * (413) is asked again in halves. A read refused inside a multi-query may only have met what the
 * reads before it spent of the request's one answer budget: it is asked again alone, at the same page
 * size, and only a refusal alone halves its page.
 *
 * Pages come in `id` order, so each page's ids must rise past every id of the read before it. A
 * source that pages wrongly (ids repeated, ids falling, or an empty page while it says more are left)
 * would loop forever or copy a part while seeming whole: that read stops there and is reported
 * (`onIncomplete`), so the manifest and the command say the copy is partial (issue 32.9).
 */
import { bigNumberText, isBigNumber } from '../../shared/big-number.ts';
import type { JsonObject, JsonValue } from '../../shared/protocol.ts';
import { isPlainObject } from '../query/normalize.ts';
import { RemoteError, type RemoteServer } from './remote-server.ts';

/** One read: the records of a model or collection matching a filter. */
export interface FetchSpec {
  namespace: string;
  schema: 'model' | 'nosql';
  filter?: Record<string, JsonValue>;
  exclude?: Record<string, JsonValue>;
  search?: string;
  /** How a failure is named in the manifest ("tickets.Document (documents of tickets.Ticket)"). */
  label: string;
  /** One of the query's own reads (its failure fails the clone). */
  root?: boolean;
}

export interface FetchFailure {
  spec: FetchSpec;
  code: string;
  message: string;
}

export interface BatchOptions {
  /** The source's maximum `limit`. */
  pageSize: number;
  /** Subqueries per request (the source's `maxQueriesPerRequest`, capped). */
  perRequest: number;
  /**
   * Hears each page as it arrives, with the read's total (`filtered`) on its first page; answers
   * false to stop asking for more pages of any read (the record cap was reached).
   */
  onPage(spec: FetchSpec, records: JsonObject[], total: number | null): boolean;
  /** Hears a read stopped because the source paged wrongly; its records so far were given to onPage. */
  onIncomplete(report: IncompleteRead): void;
}

/** A read the source did not page as asked, stopped at the page where that showed. */
export interface IncompleteRead {
  spec: FetchSpec;
  /** "the source repeated ids on page 2 (ids 5-9 again)". */
  reason: string;
  /** Distinct records the read got before it stopped (the bad page's new ones included). */
  copied: number;
  /** The read's total as the source said it (`filtered`), or null when it did not say. */
  sourceSaid: number | null;
}

interface Pending {
  spec: FetchSpec;
  offset: number;
  limit: number;
  /** The highest id of the pages so far: pages in `id` order must pass it, or the read stops. */
  lastId: number;
  /** Pages answered so far, and the ids they held (to name repeated ones). */
  pages: number;
  seen: Set<number>;
  /** The source's `filtered` for the read, from its first page. */
  total: number | null;
  /** Refused beside other reads: asked in a request of its own from then on. */
  alone?: boolean;
}

export async function fetchBatches(remote: RemoteServer, specs: readonly FetchSpec[], options: BatchOptions): Promise<FetchFailure[]> {
  const failures: FetchFailure[] = [];
  let queue: Pending[] = specs.map((spec) => ({ spec, offset: 0, limit: options.pageSize, lastId: 0, pages: 0, seen: new Set(), total: null }));
  let proceed = true;
  while (queue.length > 0 && proceed) {
    const batch = nextBatch(queue, options.perRequest);
    const rest = queue.slice(batch.length);
    const answers = await ask(remote, batch);
    const next: Pending[] = [];
    for (const [i, pending] of batch.entries()) {
      const answer = answers[i] as SubAnswer;
      if (answer.kind === 'too_large') {
        if (batch.length > 1) next.push({ ...pending, alone: true });
        else if (pending.limit === 1) failures.push({ spec: pending.spec, code: 'payload_too_large', message: answer.message });
        else next.push({ ...pending, limit: Math.ceil(pending.limit / 2) });
        continue;
      }
      if (answer.kind === 'error') {
        failures.push({ spec: pending.spec, code: answer.code, message: answer.message });
        continue;
      }
      const records = answer.records;
      const total = pending.offset === 0 ? answer.total : pending.total;
      const fault = pagingFault(pending, records, total);
      for (const record of records) pending.seen.add(record.id as number);
      proceed = options.onPage(pending.spec, records, pending.offset === 0 ? answer.total : null) && proceed;
      if (fault !== null) {
        options.onIncomplete({ spec: pending.spec, reason: fault, copied: pending.seen.size, sourceSaid: total });
        continue;
      }
      const offset = pending.offset + records.length;
      const more = total !== null ? offset < total : records.length >= pending.limit;
      if (records.length > 0 && more) next.push({ ...pending, offset, lastId: records.at(-1)!.id as number, pages: pending.pages + 1, total });
    }
    queue = [...next, ...rest];
  }
  return failures;
}

/**
 * Why a page shows the source is not paging by `id` as asked, or null: an id it gave before, an id
 * below the one before it, or no records while its total says more are left.
 */
function pagingFault(pending: Pending, records: readonly JsonObject[], total: number | null): string | null {
  const page = pending.pages + 1;
  if (records.length === 0) return total !== null && pending.offset < total ? `the source answered page ${page} with no records, though it said ${total} match` : null;
  const ids = records.map((record) => record.id as number);
  const repeated = ids.filter((id, i) => pending.seen.has(id) || ids.indexOf(id) !== i);
  if (repeated.length > 0) return `the source repeated ids on page ${page} (${idList(repeated)} again)`;
  let before = pending.lastId;
  for (const id of ids) {
    if (id < before) return `the source's ids fell on page ${page} (id ${id} after id ${before}) while paging by id ascending`;
    before = id;
  }
  return null;
}

/** "ids 5-9", "id 4", or "ids 2, 7, 9 and 3 more". */
function idList(ids: readonly number[]): string {
  const list = [...new Set(ids)].sort((a, b) => a - b);
  if (list.length === 1) return `id ${list[0]}`;
  if (list.at(-1)! - list[0]! === list.length - 1) return `ids ${list[0]}-${list.at(-1)}`;
  const shown = 5;
  return `ids ${list.slice(0, shown).join(', ')}${list.length > shown ? ` and ${list.length - shown} more` : ''}`;
}

/** The reads of the next request: a read that must be asked alone, or the reads before the next such one. */
function nextBatch(queue: readonly Pending[], perRequest: number): Pending[] {
  if (queue[0]?.alone) return queue.slice(0, 1);
  const batch: Pending[] = [];
  for (const pending of queue) {
    if (pending.alone || batch.length === perRequest) break;
    batch.push(pending);
  }
  return batch;
}

type SubAnswer = { kind: 'records'; records: JsonObject[]; total: number | null } | { kind: 'error'; code: string; message: string } | { kind: 'too_large'; message: string };

/** One request for the batch; a whole answer too large is split in two requests. */
async function ask(remote: RemoteServer, batch: Pending[]): Promise<SubAnswer[]> {
  const document: Record<string, JsonValue> = {};
  batch.forEach((pending, i) => {
    document[`q${i}`] = subquery(pending);
  });
  const answer = await remote.post(document).catch((error: unknown) => {
    if (error instanceof RemoteError && error.status === 413) return null;
    throw error;
  });
  const tooLarge = answer === null || (answer.errors?.[0]?.code === 'payload_too_large' && !isPlainObject(answer.payload));
  if (tooLarge) {
    if (batch.length === 1) return [{ kind: 'too_large', message: 'The source refused to answer even one page of this read: it is larger than its answer limit' }];
    const half = Math.ceil(batch.length / 2);
    return [...(await ask(remote, batch.slice(0, half))), ...(await ask(remote, batch.slice(half)))];
  }
  if (answer.errors && answer.errors.length > 0 && !isPlainObject(answer.payload)) {
    const first = answer.errors[0]!;
    throw new RemoteError(answer.status, first.code, `The source refused the clone's multi-query: ${first.code}: ${first.message}`);
  }
  const payload = isPlainObject(answer.payload) ? answer.payload : {};
  return batch.map((pending, i) => readSubAnswer(payload[`q${i}`], pending));
}

const LARGEST_SQLITE_INTEGER = 9223372036854775807n;

/**
 * Why a numeric id cannot be copied as it is, or null. The copy keys records by JS numbers, so an id
 * must be a safe integer to be copied exactly; a record skipped for it would leave a copy that seems
 * whole, so the clone is refused instead, naming the record (docs/workspace.md "Ids a copy cannot hold").
 */
function idBeyondCopy(id: unknown): string | null {
  if (!isBigNumber(id) && !(typeof id === 'number' && !Number.isSafeInteger(id))) return null;
  const text = idText(id);
  if (!/^-?\d+$/.test(text)) return 'an id must be a whole number';
  if (BigInt(text) > LARGEST_SQLITE_INTEGER || BigInt(text) < -LARGEST_SQLITE_INTEGER - 1n) return `SQLite's INTEGER holds ids up to ${LARGEST_SQLITE_INTEGER}, so no copy can hold it`;
  return `a clone copies ids up to ${Number.MAX_SAFE_INTEGER} (2^53-1) exactly, and would have to round this one`;
}

const idText = (id: unknown): string => (isBigNumber(id) ? bigNumberText(id) : String(id));

function subquery({ spec, offset, limit }: Pending): JsonObject {
  const meta: JsonObject = { namespace: spec.namespace, intent: 'retrieve', schema: spec.schema, ordering: ['id'], limit, offset };
  if (spec.filter) meta.filter = spec.filter;
  if (spec.exclude) meta.exclude = spec.exclude;
  if (spec.search !== undefined) meta.search = { value: spec.search };
  return { __meta__: meta };
}

function readSubAnswer(raw: JsonValue | undefined, pending: Pending): SubAnswer {
  if (!isPlainObject(raw)) return { kind: 'error', code: 'invalid_answer', message: `The source's answer has no entry for ${pending.spec.label}` };
  const errors = Array.isArray(raw.errors) ? raw.errors : [];
  if (errors.length > 0) {
    const first = isPlainObject(errors[0]) ? errors[0] : {};
    const code = typeof first.code === 'string' ? first.code : 'internal_error';
    const message = typeof first.message === 'string' ? first.message : 'The source gave no message';
    return code === 'payload_too_large' ? { kind: 'too_large', message } : { kind: 'error', code, message };
  }
  if (!Array.isArray(raw.data)) return { kind: 'error', code: 'invalid_answer', message: `The source answered ${pending.spec.label} without a list of records` };
  const records = raw.data.filter((record): record is JsonObject => isPlainObject(record) && Number.isSafeInteger(record.id) && (record.id as number) > 0);
  const unsafe = raw.data.find((record) => isPlainObject(record) && idBeyondCopy(record.id) !== null);
  if (unsafe !== undefined) throw new RemoteError(200, 'unsupported_id', `${pending.spec.label} has a record with id ${idText((unsafe as JsonObject).id)}: ${idBeyondCopy((unsafe as JsonObject).id)}; nothing was copied`);
  const extras = isPlainObject(raw.extras) ? raw.extras : {};
  const total = Number.isSafeInteger(extras.filtered) ? (extras.filtered as number) : null;
  return { kind: 'records', records, total };
}
