/**
 * The JSON body parser of POST /jql: refuses JSON nested deeper than 64 levels before parsing it
 * (a deep document would otherwise cost a deep recursion), and reports bad JSON as `invalid_json`.
 * Integers a double cannot hold arrive as bigint (exact-integers.ts).
 */
import type { FastifyInstance } from 'fastify';
import { JqlFailure, jqlError } from '../errors.ts';
import { parseJsonExact } from '../exact-integers.ts';

export const MAX_JSON_DEPTH = 64;

/** Whether `text` holds more than `limit` opening brackets at all (inside strings or not). */
function openersExceed(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Depth of objects/arrays in JSON text, counting brackets outside strings; stops past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  // Most bodies hold a handful of brackets: counting them with indexOf (native) settles it without
  // reading the text a character at a time in JavaScript (issue 14.2); only a body with more than
  // `limit` of them is scanned for how deep they actually nest.
  if (!openersExceed(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return false;
}

export function parseJsonBody(text: string): unknown {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new JqlFailure([jqlError('invalid_json', `The JSON is nested deeper than ${MAX_JSON_DEPTH} levels`)]);
  }
  try {
    // Integers past 2^53 keep their digits (a bigint) instead of becoming a neighbouring double.
    return parseJsonExact(text);
  } catch (error) {
    throw new JqlFailure([jqlError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`)]);
  }
}

export function registerJsonParser(app: FastifyInstance): void {
  // Only JSON (and, on PUT, multipart) bodies are JQL; anything else is unsupported_media_type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
