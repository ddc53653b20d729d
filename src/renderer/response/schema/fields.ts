/**
 * The small schemas every part of an answer is made of: server text cleaned for showing
 * (server-text.ts), counts that must be whole and not negative, durations, JSON values taken as
 * they are (JSON.parse made them, so they need no walk here).
 */
import * as v from 'valibot';
import type { JsonValue } from '../../../shared/protocol.ts';
import { DETAIL_MAX, serverLabel, serverMessage } from '../server-text.ts';

/** A one-line label from the server, cleaned and cut. */
export const label = v.pipe(v.string(), v.transform((s) => serverLabel(s)));
/** A message from the server, cleaned and cut (newlines kept). */
export const message = v.pipe(v.string(), v.transform((s) => serverMessage(s)));
/** A long text shown folded (a stack trace). */
export const detailText = v.pipe(v.string(), v.transform((s) => serverMessage(s, DETAIL_MAX)));
/** A count: a whole number, 0 or more, that JavaScript holds exactly. */
export const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
/** A duration in milliseconds: finite, 0 or more. */
export const millis = v.pipe(v.number(), v.finite(), v.minValue(0));
/** Any JSON value: the boundary's input comes from JSON.parse, so it is one by construction. */
export const json = v.custom<JsonValue>(() => true);
/** A JSON object (not an array, not null). */
export const jsonObject = v.custom<{ [key: string]: JsonValue }>((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/** An object with these entries; unlike v.object alone, an array is not taken for one. */
export function record<E extends v.ObjectEntries>(entries: E): v.GenericSchema<unknown, v.InferOutput<v.ObjectSchema<E, undefined>>> {
  const notArray = v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
  return v.pipe(notArray, v.object(entries)) as v.GenericSchema<unknown, v.InferOutput<v.ObjectSchema<E, undefined>>>;
}
