/**
 * `{{name}}` variables in query documents (editor tabs, saved queries, collection files), filled
 * from an environment before a run: by the console from the connection's environment, and by
 * `jql-console run` from the collection's environment and captures.
 * Where a variable sits decides what it becomes:
 * - a whole JSON string, `"{{id}}"`: the variable's JSON value (`5`, `true`, `{"a":1}`, or a string);
 * - inside a longer string, `"Bug {{n}}"`: its text, escaped for the string;
 * - bare, `"limit": {{limit}}`: its JSON text.
 * A variable's value is typed as JSON when it parses as JSON, else it is the plain string (so `5` is
 * a number, `"5"` and `abc` are strings). Unknown names are errors with their line and column.
 */
import { bigNumberText, isBigNumber, parseJsonKeepingNumbers, stringifyKeepingNumbers } from './big-number.ts';
import type { JsonValue } from './protocol.ts';

export type VariablePlace = 'whole-string' | 'in-string' | 'bare';

export interface VariableUse {
  name: string;
  /** Offsets of the text replaced (with the quotes, for a whole string). */
  start: number;
  end: number;
  place: VariablePlace;
  line: number;
  column: number;
}

export interface VariableError {
  name: string;
  message: string;
  line: number;
  column: number;
}

export type Substitution = { ok: true; text: string; used: string[] } | { ok: false; errors: VariableError[] };

const NAME = /^\s*([A-Za-z_][\w.-]*)\s*$/;

export function isVariableName(name: string): boolean {
  return /^[A-Za-z_][\w.-]*$/.test(name);
}

/** What an environment entry's text stands for (see above). */
export function parseVariableValue(raw: string): JsonValue {
  const text = raw.trim();
  if (text === '') return raw;
  try {
    // A 64-bit id keeps its digits (shared/big-number.ts): it is written back as them when filled in.
    return parseJsonKeepingNumbers(text) as JsonValue;
  } catch {
    return raw;
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function findVariables(text: string): VariableUse[] {
  const uses: VariableUse[] = [];
  let inString = false;
  let stringStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString && c === '\\') {
      i++;
      continue;
    }
    if (c === '"') {
      inString = !inString;
      if (inString) stringStart = i;
      continue;
    }
    if (c !== '{' || text[i + 1] !== '{') continue;
    const close = text.indexOf('}}', i + 2);
    if (close === -1) break;
    const inner = text.slice(i + 2, close);
    const m = NAME.exec(inner);
    if (!m || inner.includes('\n')) continue;
    const name = m[1]!;
    let start = i;
    let end = close + 2;
    let place: VariablePlace = inString ? 'in-string' : 'bare';
    if (inString && stringStart === i - 1 && text[end] === '"') {
      place = 'whole-string';
      start = i - 1;
      end += 1;
      inString = false;
    }
    uses.push({ name, start, end, place, ...position(text, i) });
    i = end - 1;
  }
  return uses;
}

function replacement(value: JsonValue, place: VariablePlace): string {
  switch (place) {
    case 'whole-string':
    case 'bare':
      // A number kept as its digits (a captured 64-bit id) is written as those digits, not rounded.
      return stringifyKeepingNumbers(value);
    case 'in-string': {
      const text = isBigNumber(value) ? bigNumberText(value) : typeof value === 'string' ? value : stringifyKeepingNumbers(value);
      return JSON.stringify(text).slice(1, -1);
    }
  }
}

export function substituteVariables(text: string, variables: Readonly<Record<string, JsonValue>>): Substitution {
  const uses = findVariables(text);
  const errors: VariableError[] = [];
  for (const use of uses) {
    if (!Object.hasOwn(variables, use.name)) {
      errors.push({ name: use.name, line: use.line, column: use.column, message: `{{${use.name}}} is not defined for this connection (line ${use.line}, column ${use.column})` });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  let out = '';
  let last = 0;
  for (const use of uses) {
    out += text.slice(last, use.start) + replacement(variables[use.name]!, use.place);
    last = use.end;
  }
  out += text.slice(last);
  return { ok: true, text: out, used: [...new Set(uses.map((u) => u.name))] };
}
