/**
 * Sends a planned upload to `PUT {base}/jql` for one connection and reads the answer into the same
 * ResultView the envelope viewer draws, plus the form errors and file links the panel shows.
 */
import type { DescribeResult, JsonValue } from '../../../shared/protocol.ts';
import { normalizeText } from '../../response/normalize-envelope.ts';
import { allErrors, type ResultView } from '../../response/result-view.ts';
import { credentialParts, jqlEndpoint, type ServerTarget } from '../../transport/jql-client.ts';
import type { UploadPlan } from './build-upload.ts';
import { findFileLinks, type FileLink } from './file-links.ts';
import type { UploadProgress, UploadRequest, UploadResponse, UploadTransport } from './upload-transport.ts';

export interface UploadOutcome {
  /** What was sent, so the panel can show the envelope next to its query. */
  queryText: string;
  response: UploadResponse;
  view: ResultView;
  links: FileLink[];
}

export function buildUploadRequest(server: ServerTarget, plan: UploadPlan): UploadRequest {
  const url = jqlEndpoint(server.baseUrl);
  const credential = credentialParts(server, url);
  return {
    connectionId: server.connectionId,
    url,
    headers: { Accept: 'application/json', ...credential.headers },
    withCredentials: credential.withCredentials,
    parts: plan.parts,
  };
}

export async function sendUpload(
  transport: UploadTransport,
  server: ServerTarget,
  plan: UploadPlan,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal; describe?: DescribeResult | null } = {},
): Promise<UploadOutcome> {
  const response = await transport.upload(buildUploadRequest(server, plan), options);
  const view = normalizeText(new TextDecoder().decode(response.body), response.status);
  const payload: JsonValue | undefined = view.sections[0]?.payload;
  return {
    queryText: JSON.stringify(plan.query, null, 2),
    response,
    view,
    // Files only where describe declares them, for the model of the upload's namespace.
    links: view.failed ? [] : findFileLinks(payload, options.describe ?? null, plan.query.__meta__.namespace, server.baseUrl),
  };
}

export function outcomeErrors(outcome: UploadOutcome) {
  return allErrors(outcome.view).map((e) => e.error);
}

/** 0..1, or null while the total is unknown. */
export function progressFraction(progress: UploadProgress | null): number | null {
  if (!progress || progress.total === null || progress.total <= 0) return null;
  return Math.min(1, Math.max(0, progress.loaded / progress.total));
}
