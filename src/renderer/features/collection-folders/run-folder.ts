/**
 * Runs requests of a collection folder from the console, against the connection the Saved view
 * uses, with the same runner as `jql-console run` (src/shared/collections/run.ts). A run that would
 * write on a read-only connection is refused as a whole before anything is sent, with the same
 * sentence and "Run once anyway" as the editor's Run.
 */
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import type { DescribeResult, JsonValue } from '../../../shared/protocol.ts';
import { runRequests, type RequestResult, type RunnableRequest, type RunReport } from '../../../shared/collections/run.ts';
import type { Redaction } from '../../../shared/collections/snapshot.ts';
import { substituteVariables } from '../../../shared/variables.ts';
import { classifyDocument } from '../../state/safety/classify-document.ts';
import { refuseWrite, type GuardedConnection, type Refusal } from '../../state/safety/write-guard.ts';
import { buildRunRequest, decodeJson, type ServerTarget } from '../../transport/jql-client.ts';
import type { Transport } from '../../transport/transport.ts';

export interface FolderRunInput {
  requests: readonly RunnableRequest[];
  variables: Record<string, JsonValue>;
  target: ServerTarget;
  connection: GuardedConnection;
  describe: DescribeResult | null;
  transport: Transport;
  /** "Run once anyway": the user confirmed writes on a read-only connection. */
  allowWrite?: boolean;
  signal?: AbortSignal;
  onResult?(result: RequestResult): void;
  /** Secret values, written as their variables' names in snapshots. */
  redactions?: Redaction[];
}

export type FolderRun = { refused: Refusal } | { report: RunReport };

export async function runFolder(input: FolderRunInput): Promise<FolderRun> {
  if (!input.allowWrite) {
    for (const request of input.requests) {
      // Unfilled variables keep the document unreadable here; the runner reports them per request.
      const filled = substituteVariables(request.file.document, input.variables);
      const refusal = refuseWrite(classifyDocument(filled.ok ? filled.text : request.file.document, input.describe), input.connection);
      if (refusal) return { refused: { ...refusal, sentence: `${request.name}: ${refusal.sentence}` } };
    }
  }
  const report = await runRequests(input.requests, {
    variables: input.variables,
    cancelled: () => input.signal?.aborted ?? false,
    redactions: input.redactions ?? [],
    onResult: input.onResult,
    send: async (outgoing) => {
      const request = buildRunRequest(input.target, stringifyKeepingNumbers(outgoing.document), {
        queryInfoLevel: outgoing.options.queryInfoLevel ?? 0,
        flatEnvelope: outgoing.options.envelope === 'flat',
      });
      if (outgoing.bearer !== undefined) request.headers.Authorization = `Bearer ${outgoing.bearer}`;
      const started = performance.now();
      try {
        const answer = await input.transport.send(request, { signal: input.signal });
        const body = decodeJson(answer.body);
        // The text too: a snapshot compares numbers by the digits sent (shared/big-number.ts).
        return { status: answer.status, body, ...(body !== undefined ? { text: new TextDecoder().decode(answer.body) } : {}), roundTripMs: answer.timeMs };
      } catch (error) {
        return { status: 0, body: undefined, roundTripMs: performance.now() - started, error: (error as Error).message };
      }
    },
  });
  return { report };
}
