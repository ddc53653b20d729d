// The describe payload's `limits` as the server reports them (docs/protocol.md "Errors", "Multipart uploads", "describe"): every bound a
// server sends is kept for the console to use (the Upload form explains an over-size file with them),
// an older server's missing ones stay absent, and an ill-typed one is dropped with a misfit.
import { describe, expect, it } from 'vitest';
import { readDescribe } from './describe-schema.ts';

const LIMITS = {
  defaultLimit: 50,
  maxLimit: 500,
  maxFileBytes: 2048,
  maxBodyBytes: 4096,
  maxQueriesPerRequest: 8,
  maxValueBytes: 1000,
  maxAnswerBytes: 1_000_000,
  maxNested: 20,
  maxUploadBytes: 10_000,
  maxStreamEvents: 300,
  cacheEntries: 10,
  cacheBytes: 4096,
  requestsPerMinute: 0,
};

describe('readDescribe limits', () => {
  it('keeps every bound the server reports', () => {
    const { describe: d, misfits } = readDescribe({ version: '1', workspace: 'w', mode: 'development', limits: LIMITS, apps: {} });
    expect(misfits).toEqual([]);
    expect(d?.limits).toEqual({
      defaultLimit: 50,
      maxLimit: 500,
      maxFileBytes: 2048,
      maxBodyBytes: 4096,
      maxQueriesPerRequest: 8,
      maxValueBytes: 1000,
      maxAnswerBytes: 1_000_000,
      maxNested: 20,
      maxUploadBytes: 10_000,
      maxStreamEvents: 300,
      requestsPerMinute: 0,
    });
  });

  it('leaves out what an older server does not report, and what is not a count', () => {
    const { describe: d, misfits } = readDescribe({ limits: { defaultLimit: 10, maxLimit: 20, maxFileBytes: 30, maxBodyBytes: 40, maxUploadBytes: 'lots' }, apps: {} });
    expect(d?.limits).toEqual({ defaultLimit: 10, maxLimit: 20, maxFileBytes: 30, maxBodyBytes: 40 });
    expect(misfits.map((m) => m.where)).toEqual(['limits.maxUploadBytes']);
  });
});
