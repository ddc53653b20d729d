/**
 * How much of another server's answer the command line reads, and for how long (docs/workspace.md
 * "Reading another server", docs/collections.md "Bounds"). A JQL server refuses to build an answer
 * past its `maxAnswerBytes` (64 MiB by default), so anything much larger is not a JQL answer: the
 * default cap is that limit plus a quarter for the envelope and the pretty-printing of a proxy.
 */
import { readCappedBytes } from '../../shared/capped-body.ts';
import type { OptionHelp } from '../cli-help.ts';

const MiB = 1024 * 1024;

/** Bytes of one answer read at most before it is refused: 80 MiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 80 * MiB;
/** Seconds one HTTP request may take, from sending it to the last byte of its answer. */
export const DEFAULT_REQUEST_TIMEOUT_S = 60;
/** Seconds a whole command may spend waiting out 429 answers' Retry-After, all waits together. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 300;

/** The answer was cut off at the cap: its message is the one sentence the user sees. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** The body of `response` as text, reading at most `maxBytes` (src/shared/capped-body.ts). */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const bytes = await readCappedBytes(response, maxBytes, () => new AnswerTooLargeError(maxBytes));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** A whole number of seconds or bytes from an option, or null when it is not one. */
export function positiveWholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The options of every command that reads another server, with their defaults (for `--help`). */
export const REMOTE_LIMIT_OPTIONS: OptionHelp[] = [
  { flag: '--timeout', value: 'SECONDS', help: 'Longest one request may take, from sending it to the last byte of its answer.', default: String(DEFAULT_REQUEST_TIMEOUT_S) },
  { flag: '--max-answer-bytes', value: 'BYTES', help: 'Largest answer read; a larger one is refused.', default: `80 MiB (${DEFAULT_MAX_ANSWER_BYTES})` },
];

export const RATE_LIMIT_OPTION: OptionHelp = {
  flag: '--max-rate-limit-wait',
  value: 'SECONDS',
  help: "Longest time spent waiting out 429 answers' Retry-After, all waits together.",
  default: String(DEFAULT_MAX_RATE_LIMIT_WAIT_S),
};

export interface RemoteLimits {
  timeoutMs: number;
  maxAnswerBytes: number;
}

/** `--timeout` and `--max-answer-bytes` as given (strings), checked; `fail` makes the usage error. */
export function remoteLimitsFrom(values: { timeout?: string; 'max-answer-bytes'?: string }, fail: (message: string) => Error): RemoteLimits {
  const read = (text: string | undefined, flag: string, fallback: number): number => {
    if (text === undefined) return fallback;
    const value = positiveWholeNumber(text);
    if (value === null) throw fail(`${flag} must be a whole number above 0, not "${text}"`);
    return value;
  };
  return {
    timeoutMs: read(values.timeout, '--timeout', DEFAULT_REQUEST_TIMEOUT_S) * 1000,
    maxAnswerBytes: read(values['max-answer-bytes'], '--max-answer-bytes', DEFAULT_MAX_ANSWER_BYTES),
  };
}
