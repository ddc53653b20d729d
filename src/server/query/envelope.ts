/**
 * Builds the response body from a processor's result or failure, in the shape the request asked
 * for: the standard envelope (docs/protocol.md "The envelope"), the flat shape (3.3), or the bare payload (3.4). The
 * only module that writes an envelope's keys (a lint rule keeps it so): a failed request, whichever
 * route refuses it, is an Outcome with errors rendered here (http/error-reply.ts).
 */
import type { Envelope, Extras, FlatEnvelope, JqlError, JsonValue, SystemInfo } from '../../shared/protocol.ts';

export interface Outcome {
  payload: JsonValue;
  message: string | null;
  extras: Extras | null;
  errors: JqlError[] | null;
  system: SystemInfo | null;
  intent: string | null;
}

/** A request that failed as a whole: only its errors (docs/protocol.md "Errors"). */
export function failedOutcome(errors: JqlError[]): Outcome {
  return { payload: null, message: null, extras: null, errors, system: null, intent: null };
}

export function toEnvelope(outcome: Outcome): Envelope {
  return {
    __payload__: outcome.errors ? null : outcome.payload,
    __message__: outcome.message,
    __extras__: outcome.extras,
    __errors__: outcome.errors,
    __system__: outcome.system,
    __intent__: outcome.intent,
  };
}

export function toFlat(outcome: Outcome): FlatEnvelope {
  return {
    status: outcome.errors ? 'ERROR' : 'OK',
    data: outcome.errors ? null : outcome.payload,
    errors: outcome.errors,
    il8n: 'en',
    extras: outcome.extras,
    system_info: outcome.system,
    intent: outcome.intent,
    message: outcome.message,
  };
}

export type EnvelopeShape = 'standard' | 'flat';

export function render(outcome: Outcome, shape: EnvelopeShape, onlyData: boolean): unknown {
  if (onlyData && !outcome.errors) return outcome.payload;
  return shape === 'flat' ? toFlat(outcome) : toEnvelope(outcome);
}
