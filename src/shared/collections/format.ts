/**
 * Collections as files (docs/collections.md): a folder holding `jql-collection.json`, one
 * `<name>.jql.json` per request, sub-folders as folders, and `environments/<name>.json`. Everything
 * here is pure: parse a file's text into checked data (every problem named with where it is) and
 * write data back as text with a stable key order, two-space indentation and a final newline, so a
 * change to one query is a small diff in Git. The query document keeps its own key order (a
 * multi-query runs its subqueries in that order).
 */
import { isBigNumber, parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../big-number.ts';
import type { JsonValue } from '../protocol.ts';
import { isExactNumber } from './exact-number.ts';

export const COLLECTION_FILE = 'jql-collection.json';
export const REQUEST_SUFFIX = '.jql.json';
export const ENVIRONMENTS_DIR = 'environments';
export const COLLECTION_FORMAT = 1;

export interface CollectionManifest {
  name: string;
  format: typeof COLLECTION_FORMAT;
  /** The environment a run uses when none is named. */
  defaultEnvironment?: string;
}

export interface RequestOptions {
  /** `query_info_level` of the request (docs/protocol.md "Diagnostics"). */
  queryInfoLevel?: 1 | 2;
  /** `envelope=flat`. */
  envelope?: 'flat';
  /** A bearer token for this request, usually a captured variable: `"{{token}}"`. */
  bearer?: string;
}

export const ASSERTION_TARGETS = [
  'status',
  'errorCode',
  'extras.filtered',
  'extras.display',
  'extras.queries',
  'extras.cached',
  'serverTime',
  'roundTrip',
  'payloadLength',
  'path',
] as const;
export type AssertionTarget = (typeof ASSERTION_TARGETS)[number];

export const ASSERTION_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'matches', 'exists', 'isNull', 'type', 'length'] as const;
export type AssertionOperator = (typeof ASSERTION_OPERATORS)[number];

/** Operators that need no `value` (it defaults to true: "exists", "is null"). */
export const VALUELESS_OPERATORS: ReadonlySet<AssertionOperator> = new Set(['exists', 'isNull']);

/** What an answer must be: data, not a script. */
export interface Assertion {
  target: AssertionTarget;
  /** `path`: a JSONPath into the envelope (`$.__payload__[0].title`). */
  path?: string;
  /** `errorCode`: the `path` of the error meant (`["filter", "priorty"]`); without it, the first error. */
  at?: Array<string | number>;
  op: AssertionOperator;
  value?: JsonValue;
}

/** Stores a value of the answer into a variable for the later requests of the same run. */
export interface Capture {
  variable: string;
  /** JSONPath into the envelope. */
  path: string;
}

export interface RequestFile {
  description?: string;
  /** The query text. Stored as JSON when it parses (placeholders in strings), else as lines. */
  document: string;
  options: RequestOptions;
  assertions: Assertion[];
  captures: Capture[];
  tags: string[];
  /** How the answer is compared with its approved snapshot file (docs/collections.md "Snapshots"). */
  snapshot?: { ignore?: string[] };
}

export interface EnvironmentFile {
  variables: Record<string, JsonValue>;
  /** Names whose values never enter a file: the keyring, memory, or `--env-var` / `JQL_VAR_<NAME>`. */
  secrets: string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const VARIABLE = /^[A-Za-z_][\w.-]*$/;
const TYPES = new Set(['string', 'number', 'boolean', 'object', 'array', 'null']);

function readJson(text: string, file: string, errors: string[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    errors.push(`${file} is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

function unknownKeys(value: Obj, known: readonly string[], where: string, errors: string[]): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) errors.push(`${where}: unknown key "${key}"`);
}

export function parseManifest(text: string, file = COLLECTION_FILE): Parsed<CollectionManifest> {
  const errors: string[] = [];
  const raw = readJson(text, file, errors);
  if (raw === undefined) return { ok: false, errors };
  if (!isObj(raw)) return { ok: false, errors: [`${file} must hold an object`] };
  unknownKeys(raw, ['name', 'format', 'defaultEnvironment'], file, errors);
  if (typeof raw.name !== 'string' || raw.name.trim() === '') errors.push(`${file}: "name" must be a non-empty string`);
  if (raw.format !== COLLECTION_FORMAT) errors.push(`${file}: "format" must be ${COLLECTION_FORMAT} (this console reads format ${COLLECTION_FORMAT})`);
  if (raw.defaultEnvironment !== undefined && (typeof raw.defaultEnvironment !== 'string' || raw.defaultEnvironment === '')) {
    errors.push(`${file}: "defaultEnvironment" must be an environment's name`);
  }
  if (errors.length > 0) return { ok: false, errors };
  const manifest: CollectionManifest = { name: raw.name as string, format: COLLECTION_FORMAT };
  if (raw.defaultEnvironment !== undefined) manifest.defaultEnvironment = raw.defaultEnvironment as string;
  return { ok: true, value: manifest };
}

export function parseRequestFile(text: string, file: string): Parsed<RequestFile> {
  const errors: string[] = [];
  const raw = readJson(text, file, errors);
  if (raw === undefined) return { ok: false, errors };
  if (!isObj(raw)) return { ok: false, errors: [`${file} must hold an object`] };
  unknownKeys(raw, ['description', 'document', 'documentLines', 'options', 'assertions', 'captures', 'tags', 'snapshot'], file, errors);
  let keptDigits: Obj | undefined;
  const kept = (): Obj => (keptDigits ??= parseJsonKeepingNumbers(text) as Obj);
  let document = '';
  if (raw.document !== undefined && raw.documentLines !== undefined) errors.push(`${file}: give "document" or "documentLines", not both`);
  else if (raw.documentLines !== undefined) {
    if (!Array.isArray(raw.documentLines) || raw.documentLines.some((line) => typeof line !== 'string')) errors.push(`${file}: "documentLines" must be an array of strings`);
    else document = (raw.documentLines as string[]).join('\n');
  } else if (raw.document !== undefined) {
    // Its 64-bit ids as written (shared/big-number.ts): read plainly, 9007199254740993 would run as 9007199254740992.
    document = stringifyKeepingNumbers(kept().document, 2);
  } else {
    errors.push(`${file}: the request needs a "document"`);
  }
  if (raw.description !== undefined && typeof raw.description !== 'string') errors.push(`${file}: "description" must be a string`);
  const options = readOptions(raw.options, file, errors);
  // An assertion's value keeps its digits too: `eq 9007199254740993` is not `eq 9007199254740992`.
  const assertions = readList(raw.assertions === undefined ? undefined : kept().assertions, `${file}: "assertions"`, errors, readAssertion);
  const captures = readList(raw.captures, `${file}: "captures"`, errors, readCapture);
  const tags = readList(raw.tags, `${file}: "tags"`, errors, (value, where, list) => {
    if (typeof value !== 'string' || value === '') list.push(`${where} must be a non-empty string`);
    return value as string;
  });
  const snapshot = readSnapshotOptions(raw.snapshot, file, errors);
  if (errors.length > 0) return { ok: false, errors };
  const request: RequestFile = { document, options, assertions, captures, tags };
  if (typeof raw.description === 'string' && raw.description !== '') request.description = raw.description;
  if (snapshot) request.snapshot = snapshot;
  return { ok: true, value: request };
}

export function parseEnvironmentFile(text: string, file: string): Parsed<EnvironmentFile> {
  const errors: string[] = [];
  const raw = readJson(text, file, errors);
  if (raw === undefined) return { ok: false, errors };
  if (!isObj(raw)) return { ok: false, errors: [`${file} must hold an object`] };
  unknownKeys(raw, ['variables', 'secrets'], file, errors);
  const variables = raw.variables ?? {};
  if (!isObj(variables)) errors.push(`${file}: "variables" must be an object of name to value`);
  else for (const name of Object.keys(variables)) if (!VARIABLE.test(name)) errors.push(`${file}: "${name}" is not a variable name`);
  const secrets = readList(raw.secrets, `${file}: "secrets"`, errors, (value, where, list) => {
    if (typeof value !== 'string' || !VARIABLE.test(value)) list.push(`${where} must be a variable name`);
    return value as string;
  });
  if (isObj(variables)) {
    for (const name of secrets) if (Object.hasOwn(variables, name)) errors.push(`${file}: "${name}" is a secret, so its value cannot be in the file`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { variables: variables as Record<string, JsonValue>, secrets } };
}

function readOptions(value: unknown, file: string, errors: string[]): RequestOptions {
  if (value === undefined) return {};
  if (!isObj(value)) {
    errors.push(`${file}: "options" must be an object`);
    return {};
  }
  unknownKeys(value, ['queryInfoLevel', 'envelope', 'bearer'], `${file}: "options"`, errors);
  const options: RequestOptions = {};
  if (value.queryInfoLevel !== undefined) {
    if (value.queryInfoLevel !== 1 && value.queryInfoLevel !== 2) errors.push(`${file}: "options.queryInfoLevel" must be 1 or 2`);
    else options.queryInfoLevel = value.queryInfoLevel;
  }
  if (value.envelope !== undefined) {
    if (value.envelope !== 'flat') errors.push(`${file}: "options.envelope" can only be "flat"`);
    else options.envelope = 'flat';
  }
  if (value.bearer !== undefined) {
    if (typeof value.bearer !== 'string' || value.bearer === '') errors.push(`${file}: "options.bearer" must be a string, usually "{{token}}"`);
    else options.bearer = value.bearer;
  }
  return options;
}

function readSnapshotOptions(value: unknown, file: string, errors: string[]): RequestFile['snapshot'] {
  if (value === undefined) return undefined;
  if (!isObj(value)) {
    errors.push(`${file}: "snapshot" must be an object, e.g. {"ignore": ["$..created_at"]}`);
    return undefined;
  }
  unknownKeys(value, ['ignore'], `${file}: "snapshot"`, errors);
  const ignore = readList(value.ignore, `${file}: "snapshot.ignore"`, errors, (item, where, list) => {
    if (typeof item !== 'string' || !item.startsWith('$')) list.push(`${where} must be a JSONPath starting with $`);
    return item as string;
  });
  return ignore.length > 0 ? { ignore } : {};
}

function readList<T>(value: unknown, where: string, errors: string[], read: (item: unknown, where: string, errors: string[]) => T): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.push(`${where} must be an array`);
    return [];
  }
  return value.map((item, index) => read(item, `${where}[${index}]`, errors));
}

function readAssertion(value: unknown, where: string, errors: string[]): Assertion {
  const assertion = { target: 'status', op: 'eq' } as Assertion;
  if (!isObj(value)) {
    errors.push(`${where} must be an object`);
    return assertion;
  }
  unknownKeys(value, ['target', 'path', 'at', 'op', 'value'], where, errors);
  const problem = assertionProblem(value);
  if (problem) errors.push(`${where}: ${problem}`);
  return value as unknown as Assertion;
}

/** Why an assertion is not one, in a sentence; null when it is (the UI's table checks rows with it). */
export function assertionProblem(value: Obj): string | null {
  const { target, op } = value;
  if (!ASSERTION_TARGETS.includes(target as AssertionTarget)) return `"target" must be one of ${ASSERTION_TARGETS.join(', ')}`;
  if (!ASSERTION_OPERATORS.includes(op as AssertionOperator)) return `"op" must be one of ${ASSERTION_OPERATORS.join(', ')}`;
  if (target === 'path' && (typeof value.path !== 'string' || !value.path.startsWith('$'))) return 'a "path" target needs "path": a JSONPath starting with $';
  if (target !== 'path' && value.path !== undefined) return '"path" belongs to the "path" target only';
  if (value.at !== undefined && (target !== 'errorCode' || !Array.isArray(value.at) || value.at.some((step) => typeof step !== 'string' && typeof step !== 'number'))) {
    return '"at" is the error path of an "errorCode" target: an array of keys and indexes';
  }
  const given = Object.hasOwn(value, 'value');
  if (!given && !VALUELESS_OPERATORS.has(op as AssertionOperator)) return `"${String(op)}" needs a "value"`;
  if (!given) return null;
  switch (op) {
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'length':
      return isExactNumber(value.value) && (op !== 'length' || typeof value.value === 'number') ? null : `"${op}" compares with a number`;
    case 'in':
      return Array.isArray(value.value) ? null : '"in" takes an array of allowed values';
    case 'matches':
      if (typeof value.value !== 'string' || isBigNumber(value.value)) return '"matches" takes a regular expression as a string';
      try {
        new RegExp(value.value);
        return null;
      } catch (error) {
        return `"matches": ${(error as Error).message}`;
      }
    case 'type':
      return typeof value.value === 'string' && !isBigNumber(value.value) && TYPES.has(value.value) ? null : `"type" takes one of ${[...TYPES].join(', ')}`;
    case 'exists':
    case 'isNull':
      return typeof value.value === 'boolean' ? null : `"${op}" takes true or false`;
    default:
      return null;
  }
}

function readCapture(value: unknown, where: string, errors: string[]): Capture {
  if (!isObj(value)) {
    errors.push(`${where} must be an object`);
    return { variable: '', path: '' };
  }
  unknownKeys(value, ['variable', 'path'], where, errors);
  if (typeof value.variable !== 'string' || !VARIABLE.test(value.variable)) errors.push(`${where}: "variable" must be a variable name`);
  if (typeof value.path !== 'string' || !value.path.startsWith('$')) errors.push(`${where}: "path" must be a JSONPath starting with $`);
  return { variable: value.variable as string, path: value.path as string };
}

/** A request's document as stored: the JSON itself when the text parses, else its lines. */
function storedDocument(document: string): { document: JsonValue } | { documentLines: string[] } {
  try {
    const parsed = parseJsonKeepingNumbers(document) as JsonValue;
    // Text that parses back to the same JSON is kept as JSON; anything with bare placeholders is not JSON.
    return { document: parsed };
  } catch {
    return { documentLines: document.split('\n') };
  }
}

/** Object keys in the order given, absent ones left out: the stable order of our own structures. */
function ordered(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

/** Numbers kept as their digits (a request's document) are written back as those digits. */
const text = (value: unknown): string => `${stringifyKeepingNumbers(value, 2)}\n`;

export function serializeManifest(manifest: CollectionManifest): string {
  return text(ordered({ ...manifest }, ['name', 'format', 'defaultEnvironment']));
}

export function serializeRequestFile(request: RequestFile): string {
  const assertions = request.assertions.map((assertion) => ordered({ ...assertion }, ['target', 'path', 'at', 'op', 'value']));
  const captures = request.captures.map((capture) => ordered({ ...capture }, ['variable', 'path']));
  const options = ordered({ ...request.options }, ['queryInfoLevel', 'envelope', 'bearer']);
  return text(
    ordered(
      {
        description: request.description || undefined,
        ...storedDocument(request.document),
        options: Object.keys(options).length > 0 ? options : undefined,
        assertions: assertions.length > 0 ? assertions : undefined,
        captures: captures.length > 0 ? captures : undefined,
        tags: request.tags.length > 0 ? request.tags : undefined,
        snapshot: request.snapshot,
      },
      ['description', 'document', 'documentLines', 'options', 'assertions', 'captures', 'tags', 'snapshot'],
    ),
  );
}

export function serializeEnvironmentFile(environment: EnvironmentFile): string {
  const variables = Object.fromEntries(Object.keys(environment.variables).sort().map((name) => [name, environment.variables[name]]));
  return text(ordered({ variables, secrets: environment.secrets.length > 0 ? [...environment.secrets].sort() : undefined }, ['variables', 'secrets']));
}

/** `02-create folder.jql.json` -> `02-create folder`. */
export function requestName(fileName: string): string {
  return fileName.endsWith(REQUEST_SUFFIX) ? fileName.slice(0, -REQUEST_SUFFIX.length) : fileName;
}

/** A file name for a request name: path separators and control characters are not allowed in it. */
export function requestFileName(name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').replace(/^\.+/, '').trim() || 'request';
  return `${safe.slice(0, 150)}${REQUEST_SUFFIX}`;
}

/** Names in the order a run takes them: code-unit order, the same on every machine. */
export function runOrder(names: readonly string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
