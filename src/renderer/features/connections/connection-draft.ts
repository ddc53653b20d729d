/** Checks what the user typed in the connection form; framework-free and tested. */
import { MAX_ANSWER_LIMIT, MIN_ANSWER_LIMIT } from '../../../shared/bridge.ts';
import type { ConnectionDraft } from '../../state/connections-store.ts';
import { trimBaseUrl } from '../../transport/jql-client.ts';

export type DraftErrors = Partial<Record<keyof ConnectionDraft, string>>;

const MIB = 1024 * 1024;

/** The answer limit typed in MiB ('' keeps the default); bytes, or an error sentence. */
export function parseAnswerLimit(text: string): { answerLimit?: number; error?: string } {
  if (text.trim() === '') return {};
  const mib = Number(text);
  if (!Number.isInteger(mib) || mib * MIB < MIN_ANSWER_LIMIT || mib * MIB > MAX_ANSWER_LIMIT) {
    return { error: `A whole number of MiB from ${MIN_ANSWER_LIMIT / MIB} to ${MAX_ANSWER_LIMIT / MIB}, or empty for the default.` };
  }
  return { answerLimit: mib * MIB };
}

export function validateDraft(input: ConnectionDraft): { draft: ConnectionDraft; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const name = input.name.trim();
  let baseUrl = trimBaseUrl(input.baseUrl);
  // "host:8787/api" gets http://; anything that already names a scheme is left to the checks below.
  if (baseUrl && !/^[a-z][a-z0-9+.-]*:/i.test(baseUrl.replace(/^[^/:]+:\d/, ''))) baseUrl = `http://${baseUrl}`;
  // A pasted endpoint ("…/jql") still names the server.
  baseUrl = baseUrl.replace(/\/jql$/, '');
  if (!baseUrl) errors.baseUrl = 'Enter the server URL, e.g. https://jql.example.com/api';
  else {
    try {
      const url = new URL(baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.baseUrl = 'Use an http:// or https:// URL.';
      else if (!url.hostname) errors.baseUrl = 'The URL needs a host name.';
      else if (url.search || url.hash) errors.baseUrl = 'Leave out the query string and fragment.';
    } catch {
      errors.baseUrl = 'That is not a URL.';
    }
  }
  const fallbackName = (() => {
    try {
      return new URL(baseUrl).host;
    } catch {
      return '';
    }
  })();
  const kind = input.deployment === undefined ? {} : { deployment: input.deployment, ...(input.readOnly === undefined ? {} : { readOnly: input.readOnly }) };
  const limit = input.answerLimit === undefined ? {} : { answerLimit: input.answerLimit };
  return { draft: { name: name || fallbackName, baseUrl, authClass: input.authClass, ...kind, ...limit }, errors };
}
