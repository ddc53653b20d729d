/**
 * Finds where each object key sits in a JSON text (offsets of the key and its value), so an error
 * that names a `path` or a `field` can be pinned on the exact key the user typed. Tolerant: on a
 * syntax error it returns the keys read so far, because the user may be mid-edit.
 */

export type JsonPath = Array<string | number>;

export interface KeyLocation {
  path: JsonPath;
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

class Stop extends Error {}

export function listKeys(text: string): KeyLocation[] {
  const out: KeyLocation[] = [];
  let i = 0;

  const fail = (): never => {
    throw new Stop();
  };

  const skip = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else if (text.startsWith('//', i)) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end + 1;
      } else if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? text.length : end + 2;
      } else return;
    }
  };

  const readString = (): string => {
    if (text[i] !== '"') fail();
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      if (text[i] === '\n') fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return text.slice(start + 1, i - 1);
    }
  };

  const readValue = (path: JsonPath): void => {
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skip();
        const keyStart = i;
        const key = readString();
        const keyEnd = i;
        skip();
        if (text[i] !== ':') {
          // Still record the key: "tickets.Ticket" typed without a value yet is worth locating.
          out.push({ path: [...path, key], key, keyStart, keyEnd, valueStart: keyEnd, valueEnd: keyEnd });
          fail();
        }
        i++;
        skip();
        const valueStart = i;
        const entry: KeyLocation = { path: [...path, key], key, keyStart, keyEnd, valueStart, valueEnd: valueStart };
        out.push(entry);
        readValue(entry.path);
        entry.valueEnd = i;
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        readValue([...path, index]);
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') {
      readString();
      return;
    }
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) fail();
    i += m![0].length;
  };

  try {
    readValue([]);
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return out;
}

/** camelCase and snake_case name the same key on the wire (docs/protocol.md "The query document"). */
export function sameKey(a: string | number, b: string | number): boolean {
  if (typeof a === 'number' || typeof b === 'number') return String(a) === String(b);
  const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return a === b || snake(a) === snake(b);
}

export function findByPath(keys: KeyLocation[], path: JsonPath): KeyLocation | undefined {
  // Array indices name values, not keys: locate the deepest key at or above the path.
  let target = path;
  while (target.length > 0 && typeof target[target.length - 1] === 'number') target = target.slice(0, -1);
  if (target.length === 0) return undefined;
  return keys.find((k) => k.path.length === target.length && k.path.every((p, idx) => sameKey(p, target[idx]!)));
}
