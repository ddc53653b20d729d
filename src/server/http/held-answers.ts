/**
 * The bound on answers held for clients that read slowly (docs/protocol.md "Limits" `heldAnswerBytes`):
 * an answer written to a socket stays in the server's memory until the client has read it (past what
 * the kernel buffers). Each answer counts from the moment it is written until its last byte is handed
 * to the operating system (the response's `finish`) or its connection closes; an answer that would
 * bring the total past the bound is not written: the client gets 503 `server_busy` with Retry-After.
 * So however many clients stop reading, what the server holds for them stays under the bound.
 */
import type { FastifyReply } from 'fastify';
import { JqlFailure, jqlError } from '../errors.ts';

/** Seconds a client refused for `server_busy` is asked to wait. */
export const BUSY_RETRY_SECONDS = 1;

/** A short answer is counted at its most (3 bytes a UTF-16 unit) instead of being measured. */
const MEASURED_FROM = 16 * 1024;

export class HeldAnswers {
  readonly max: number;
  /** Bytes of answers written and not yet handed to the operating system. */
  held = 0;

  constructor(max: number) {
    this.max = max;
  }

  /**
   * Counts `text` as held, before it is written: the bytes to give back to `written` once it is, or
   * null (nothing counted) when it would pass the bound. A write's answer is `forced`: it cannot be
   * refused after its commit, so it is counted as it is, and the writes after it are refused before
   * they run until there is room again (`refuseWrite`).
   */
  admit(text: string, forced = false): number | null {
    const bytes = text.length < MEASURED_FROM ? 3 * text.length : Buffer.byteLength(text, 'utf8');
    if (!forced && this.held + bytes > this.max) return null;
    this.held += bytes;
    return bytes;
  }

  /**
   * Holds the `bytes` admitted for `reply`'s answer until it is handed to the operating system or its
   * connection closes. Most answers are out by the time the reply is sent (the socket took them at
   * once: the response has finished writing): they are given back now, without the two listeners a
   * reply would otherwise carry, which is measurable on small reads (issue 29).
   */
  written(reply: FastifyReply, bytes: number): void {
    if (reply.raw.writableFinished) {
      this.held -= bytes;
      return;
    }
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  }

  /**
   * The refusal of a request that may write, before it runs, or null: while answers are held and they
   * leave no room for a short answer (MEASURED_FROM units counted at their most, or half the bound
   * when that is less).
   */
  refuseWrite(): JqlFailure | null {
    return this.held > 0 && this.held + Math.min(3 * MEASURED_FROM, this.max / 2) > this.max ? serverBusy(this.max) : null;
  }
}

/** The refusal of an answer while the answers held for slow readers fill limits.heldAnswerBytes. */
export function serverBusy(max: number): JqlFailure {
  return new JqlFailure([
    jqlError('server_busy', `The server holds ${max} bytes of answers its clients have not read yet (limits.heldAnswerBytes); try again in ${BUSY_RETRY_SECONDS} s`),
  ]);
}
