// A snapshot compares and keeps numbers by the digits sent: an id above 2^53 is not the id next to it
// (both read as the same double, they would pass as a wrong green), and a file keeps what was approved.
import { describe, expect, it } from 'vitest';
import { parseJsonKeepingNumbers } from '../big-number.ts';
import type { JsonValue } from '../protocol.ts';
import { runRequests, type RunnableRequest } from './run.ts';
import { compareSnapshot, describeChanges, serializeSnapshot } from './snapshot.ts';

const answerText = (id: string) => `{"__payload__": [{"id": ${id}, "code": 12345678901234567890}], "__errors__": null}`;

function request(approvedText: string): RunnableRequest {
  return {
    path: 'one.jql.json',
    name: 'one',
    file: { document: '{"__meta__": {"namespace": "big.Thing", "intent": "retrieve"}}', options: {}, assertions: [], captures: [], tags: [], snapshot: {} },
    snapshot: { approved: parseJsonKeepingNumbers(approvedText) as JsonValue },
  };
}

async function runAgainst(approvedText: string, sentText: string) {
  const report = await runRequests([request(approvedText)], {
    variables: {},
    send: async () => ({ status: 200, body: JSON.parse(sentText), text: sentText, roundTripMs: 1 }),
  });
  return report.results[0]!;
}

describe('snapshots and numbers a double cannot hold', () => {
  it('fails an answer whose id differs from the approved one only past 2^53', async () => {
    const result = await runAgainst(answerText('9007199254740992'), answerText('9007199254740993'));
    expect(result.passed).toBe(false);
    expect(result.snapshot?.state).toBe('differs');
    expect(describeChanges(result.snapshot!.changes)).toContain('9007199254740993');
    expect(describeChanges(result.snapshot!.changes)).not.toContain('\uE000');
  });

  it('passes the same digits, and approves them as they were sent', async () => {
    const result = await runAgainst(answerText('9007199254740993'), answerText('9007199254740993'));
    expect(result.passed).toBe(true);
    const file = serializeSnapshot(result.snapshot!.actual);
    expect(file).toContain('"id": 9007199254740993');
    expect(file).toContain('"code": 12345678901234567890');
  });

  it('compares kept numbers by their digits', () => {
    const a = parseJsonKeepingNumbers('{"id": 12345678901234567890}') as JsonValue;
    const b = parseJsonKeepingNumbers('{"id": 12345678901234567891}') as JsonValue;
    expect(compareSnapshot(a, b)).toHaveLength(1);
    expect(compareSnapshot(a, structuredClone(a))).toEqual([]);
  });
});
