/**
 * Compares a documented answer with the one the server gave. The documented JSON is exact except
 * where it says otherwise, so readers can trust what they see:
 *
 * - `"…"` stands for any value; a string ending in `…` for any string that starts with what precedes;
 * - an object holding the key `"…"` may have more keys than it shows; an array ending in `"…"` may
 *   have more elements than it shows;
 * - `"{{name}}"` stands for any value and captures it under that name.
 *
 * Answers that are not JSON (a file's bytes) compare as text, with the same trailing `…`.
 */
export const ANY = '…';

export interface Match {
  mismatches: string[];
  captured: Map<string, unknown>;
}

const CAPTURE = /^\{\{([A-Za-z0-9_]+)\}\}$/;

export function matchJson(expected: unknown, actual: unknown): Match {
  const match: Match = { mismatches: [], captured: new Map() };
  compare(expected, actual, '$', match);
  return match;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function compare(expected: unknown, actual: unknown, at: string, match: Match): void {
  const fail = (why: string): void => {
    match.mismatches.push(`${at}: ${why}`);
  };
  if (typeof expected === 'string') {
    const capture = CAPTURE.exec(expected);
    if (capture) {
      if (actual === undefined) fail('missing');
      else match.captured.set(capture[1] as string, actual);
      return;
    }
    if (expected === ANY) {
      if (actual === undefined) fail('missing');
      return;
    }
    if (expected.endsWith(ANY)) {
      const prefix = expected.slice(0, -ANY.length);
      if (typeof actual !== 'string' || !actual.startsWith(prefix)) fail(`expected a string starting ${JSON.stringify(prefix)}, got ${describe(actual)}`);
      return;
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return fail(`expected an array, got ${describe(actual)}`);
    const open = expected.length > 0 && expected[expected.length - 1] === ANY;
    const shown = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < shown.length : actual.length !== shown.length) {
      fail(`expected ${open ? 'at least ' : ''}${shown.length} elements, got ${actual.length}`);
    }
    shown.forEach((item, index) => compare(item, actual[index], `${at}[${index}]`, match));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return fail(`expected an object, got ${describe(actual)}`);
    const shown = expected as Record<string, unknown>;
    const given = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(shown)) {
      if (key === ANY) continue;
      if (!Object.hasOwn(given, key)) fail(`missing key ${JSON.stringify(key)}`);
      else compare(value, given[key], `${at}.${key}`, match);
    }
    if (!Object.hasOwn(shown, ANY)) {
      const extra = Object.keys(given).filter((key) => !Object.hasOwn(shown, key));
      if (extra.length > 0) fail(`unexpected key${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')} (add "…": "…" to show an object in part)`);
    }
    return;
  }
  if (!Object.is(expected, actual)) fail(`expected ${describe(expected)}, got ${describe(actual)}`);
}

/** A documented text answer: exact, or a prefix when it ends in `…`. */
export function matchText(expected: string, actual: string): string[] {
  const wanted = expected.trimEnd();
  if (wanted.endsWith(ANY)) {
    const prefix = wanted.slice(0, -ANY.length);
    return actual.startsWith(prefix) ? [] : [`expected text starting ${JSON.stringify(prefix)}, got ${JSON.stringify(actual.slice(0, 120))}`];
  }
  return actual === wanted ? [] : [`expected text ${JSON.stringify(wanted.slice(0, 120))}, got ${JSON.stringify(actual.slice(0, 120))}`];
}
