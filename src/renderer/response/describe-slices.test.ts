import { describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../shared/protocol.ts';
import { listNamespaces } from '../monaco/describe-index.ts';
import { DESCRIBE_SLICE_NAMESPACES, inSlices, isDescribeSlice, type DescribeSliceMessage } from './describe-slices.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { parseDescribeBody, type WorkerLike } from './parse-response.ts';
import { readAnswer } from './read-answer.ts';

const model = (i: number) => ({
  fields: { id: { type: 'integer', required: false, null: false, lookups: ['exact'] }, name: { type: 'string', required: true, null: false, lookups: ['exact', 'icontains'] } },
  relations: {},
  search: [],
  ordering: [],
  intents: i % 2 ? ['retrieve'] : ['retrieve', 'count'],
  permissions: {},
});

/** A describe answer with `models` models in app `big`, a small app beside it, controllers and collections. */
function describeAnswer(models: number): unknown {
  return {
    __payload__: {
      version: '1.0.0',
      workspace: 'w',
      mode: 'development',
      limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1, maxBodyBytes: 1 },
      apps: {
        small: { models: { One: model(1) }, controllers: { Ping: { intents: ['ping'] } }, collections: {} },
        big: {
          models: Object.fromEntries(Array.from({ length: models }, (_, i) => [`Model${i}`, model(i)])),
          controllers: { Report: { intents: ['run'] } },
          collections: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`Bag${i}`, { intents: ['retrieve'] }])),
          hooks: ['before_create'],
        },
      },
      extensions: ['seeAs'],
    },
    __errors__: null,
    __intent__: 'describe',
  };
}

const encode = (v: unknown): ArrayBuffer => new TextEncoder().encode(JSON.stringify(v)).buffer as ArrayBuffer;

/**
 * A worker stand-in that runs what parse.worker.ts runs (readAnswer, then inSlices) and hands each
 * message over as its own structured clone, one macrotask each, as a real worker does.
 */
function slicingWorker(max: number): WorkerLike & { sent: Array<ParseReply | DescribeSliceMessage>; buffers: ArrayBuffer[] } {
  const listeners: Array<(e: MessageEvent<ParseReply | DescribeSliceMessage>) => void> = [];
  const sent: Array<ParseReply | DescribeSliceMessage> = [];
  const buffers: ArrayBuffer[] = [];
  return {
    sent,
    buffers,
    postMessage({ id, buffer, ...request }: ParseRequest) {
      buffers.push(buffer);
      const reply: ParseReply = { id, ...readAnswer(request, new TextDecoder().decode(buffer)) };
      for (const message of inSlices(reply, max)) {
        sent.push(message);
        const data = structuredClone(message);
        setTimeout(() => listeners.forEach((l) => l({ data } as MessageEvent<ParseReply | DescribeSliceMessage>)));
      }
    },
    addEventListener(type: string, listener: never) {
      if (type === 'message') listeners.push(listener);
    },
  };
}

const namespacesIn = (m: ParseReply | DescribeSliceMessage): number => {
  if (isDescribeSlice(m)) return m.slice.entries.length;
  const d = 'view' in m ? m.describe?.describe : null;
  return d ? listNamespaces(d).length : 0;
};

/** The describe read on the spot, without a worker: what the sliced one must equal. */
async function readWhole(answer: unknown): Promise<DescribeResult | null> {
  return (await parseDescribeBody(encode(answer), 200, { threshold: Infinity })).describe?.describe ?? null;
}

describe('a large describe crosses from the parse worker in slices', () => {
  it('no message holds more than the slice size of namespaces, and the window rebuilds the same describe in the same order', async () => {
    const answer = describeAnswer(1_234);
    const worker = slicingWorker(100);
    const read = await parseDescribeBody(encode(answer), 200, { threshold: 10, getWorker: () => worker });
    // 1,234 + 5 models and collections of `big`, 1 + 2 of `small`.
    expect(worker.sent.length).toBeGreaterThan(12);
    for (const message of worker.sent) expect(namespacesIn(message)).toBeLessThanOrEqual(100);
    const whole = await readWhole(answer);
    expect(read.describe?.describe).toEqual(whole);
    expect(listNamespaces(read.describe!.describe!).map((n) => n.namespace)).toEqual(listNamespaces(whole!).map((n) => n.namespace));
    expect(Object.keys(read.describe!.describe!.apps.big!)).toEqual(['models', 'controllers', 'collections']);
  });

  it('makes the list of namespaces slice by slice: no task after the last slice walks them all (issue 31)', async () => {
    const answer = describeAnswer(1_234);
    const read = await parseDescribeBody(encode(answer), 200, { threshold: 10, getWorker: () => slicingWorker(100) });
    const d = read.describe!.describe!;
    // Reading a group of the finished describe now fails: the list must be there already, made as the slices came.
    for (const app of Object.values(d.apps)) {
      for (const group of ['models', 'controllers', 'collections'] as const) {
        Object.defineProperty(app, group, {
          get() {
            throw new Error(`${group} walked after the describe was put together`);
          },
        });
      }
    }
    expect(listNamespaces(d)).toEqual(listNamespaces((await readWhole(answer))!));
  });

  it('sends a describe of at most the slice size whole, as one message', async () => {
    const worker = slicingWorker(DESCRIBE_SLICE_NAMESPACES);
    const read = await parseDescribeBody(encode(describeAnswer(10)), 200, { threshold: 10, getWorker: () => worker });
    expect(worker.sent).toHaveLength(1);
    expect(read.describe?.describe).toEqual(await readWhole(describeAnswer(10)));
  });

  it('keeps a namespace named __proto__ as a namespace', async () => {
    const answer = describeAnswer(0) as { __payload__: { apps: { big: { models: Record<string, unknown> } } } };
    answer.__payload__.apps.big.models = JSON.parse(`{"A":${JSON.stringify(model(0))},"__proto__":${JSON.stringify(model(1))},"B":${JSON.stringify(model(2))}}`) as Record<string, unknown>;
    const read = await parseDescribeBody(encode(answer), 200, { threshold: 10, getWorker: () => slicingWorker(1) });
    const whole = await readWhole(answer);
    expect(Object.keys(read.describe!.describe!.apps.big!.models)).toEqual(Object.keys(whole!.apps.big!.models));
    expect(read.describe?.describe).toEqual(whole);
    expect(listNamespaces(read.describe!.describe!)).toEqual(listNamespaces(whole!));
  });

  it('moves a body the caller hands over to the worker as it is, and copies one it keeps', async () => {
    const worker = slicingWorker(DESCRIBE_SLICE_NAMESPACES);
    const kept = encode(describeAnswer(3));
    await parseDescribeBody(kept, 200, { threshold: 10, getWorker: () => worker });
    expect(worker.buffers[0]).not.toBe(kept);
    const handed = encode(describeAnswer(3));
    const read = await parseDescribeBody(handed, 200, { threshold: 10, getWorker: () => worker, handOver: true });
    expect(worker.buffers[1]).toBe(handed);
    expect(read.describe?.describe).toEqual(await readWhole(describeAnswer(3)));
  });

  it('passes a reply without a describe as it is', () => {
    const failure = { id: 3, failure: 'no' };
    expect(inSlices(failure, 1)).toEqual([failure]);
  });
});
