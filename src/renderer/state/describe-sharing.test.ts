import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../shared/protocol.ts';
import { DESCRIBE_SLICE_NAMESPACES } from '../response/describe-slices.ts';
import { DESCRIBE_QUERY_OPTIONS } from './use-describes.ts';

/** A describe outcome of `models` models, as fetchDescribe gives it. */
function outcome(models: number): { describe: DescribeResult; misfits: [] } {
  const model = (i: number) => ({ fields: { id: { type: 'integer', required: false, null: false, lookups: ['exact'] } }, relations: {}, search: [], ordering: [], intents: ['retrieve'], permissions: {}, verbose: `M${i}` });
  const apps = { shop: { models: Object.fromEntries(Array.from({ length: models }, (_, i) => [`M${i}`, model(i)])), controllers: {}, collections: {} } };
  return { describe: { version: '1', apps } as unknown as DescribeResult, misfits: [] };
}

/** Any read of a model of `held` after this fails the test: it is how a walk of the old describe shows. */
function forbidWalking(held: { describe: DescribeResult }): void {
  Object.defineProperty(held.describe.apps.shop!, 'models', {
    get() {
      throw new Error('the describe held was walked');
    },
  });
}

const client = new QueryClient();
afterEach(() => client.clear());

/** Fetches the describe twice under one key, as a refetch does, with the options useDescribes uses. */
async function fetchTwice(first: object, second: object, between: (held: never) => void = () => undefined) {
  const options = { ...DESCRIBE_QUERY_OPTIONS, queryKey: ['schema', 'describe', 'c'], staleTime: 0 };
  // What the cache holds (what useDescribes gives), not what the query function returned.
  await client.fetchQuery({ ...options, queryFn: async () => first });
  const held = client.getQueryData<object>(options.queryKey)!;
  between(held as never);
  await client.fetchQuery({ ...options, queryFn: async () => second });
  return { held, again: client.getQueryData<object>(options.queryKey)! };
}

describe('a describe fetched again (issue 31, huge-describe)', () => {
  it('past the slice size, takes the place of the one held without walking either', async () => {
    const next = outcome(DESCRIBE_SLICE_NAMESPACES + 1);
    const { again } = await fetchTwice(outcome(DESCRIBE_SLICE_NAMESPACES + 1), next, forbidWalking);
    expect(again).toBe(next);
  });

  it('up to the slice size, keeps what did not change: the same answer as the new one, the old objects where equal', async () => {
    const next = outcome(3);
    (next.describe.apps.shop!.models as unknown as Record<string, { verbose: string }>).M2!.verbose = 'changed';
    const { held, again } = await fetchTwice(outcome(3), next);
    expect(again).toEqual(next);
    const models = (d: object) => (d as { describe: DescribeResult }).describe.apps.shop!.models;
    expect(models(again).M0).toBe(models(held).M0);
    expect(models(again).M2).not.toBe(models(held).M2);
  });
});
