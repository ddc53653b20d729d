/**
 * The boundary for `system.Schema.describe` (docs/protocol.md "describe"): the payload read into the console's
 * DescribeResult, one model, controller and collection at a time, so a describe of 100,000 models
 * costs one pass and one ill-typed part costs that part only. A field whose `choices` is not a list
 * keeps its other facts and loses its choices; a model whose `intents` is not a list offers none; a
 * name that is not printable is left out. Each is named as a misfit, for the editor to show.
 */
import * as v from 'valibot';
import {
  FILTER_LOOKUPS,
  type DescribeApp,
  type DescribeCollection,
  type DescribeController,
  type DescribeField,
  type DescribeModel,
  type DescribeResult,
  type FieldType,
  type FilterLookup,
  type ProtocolExtension,
} from '../../../shared/protocol.ts';
import { count, json, jsonObject, label, record } from './fields.ts';
import { lenient, lenientList, misfit, readPart, type Misfit } from './lenient.ts';

const FIELD_TYPES: readonly FieldType[] = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'json', 'ref', 'file'];

/** Absent or null is "not said"; anything else must fit. */
const opt = <S extends v.GenericSchema>(schema: S, where: string, expected: string) =>
  v.pipe(
    lenient(v.nullish(schema), undefined, where, expected),
    v.transform((x) => x ?? undefined),
  );

const bool = (where: string) => opt(v.boolean(), where, 'true or false');
const names = (where: string) => v.pipe(opt(v.unknown(), where, 'a list'), v.transform((x) => (x === undefined ? [] : v.parse(lenientList(label, where, 'a name'), x))));

const fieldSchema = v.pipe(
  record({
    type: opt(v.picklist(FIELD_TYPES), 'type', `one of ${FIELD_TYPES.join(', ')}`),
    required: bool('required'),
    null: bool('null'),
    choices: opt(v.array(json), 'choices', 'a list'),
    to: opt(label, 'to', 'a namespace'),
    default: v.optional(json),
    unique: bool('unique'),
    maxLength: opt(count, 'maxLength', 'a count'),
    min: opt(v.pipe(v.number(), v.finite()), 'min', 'a number'),
    max: opt(v.pipe(v.number(), v.finite()), 'max', 'a number'),
    writeOnly: bool('writeOnly'),
    auto: opt(v.picklist(['create', 'update'] as const), 'auto', 'create or update'),
    protected: bool('protected'),
    lookups: v.pipe(opt(v.unknown(), 'lookups', 'a list'), v.transform((x) => (x === undefined ? undefined : v.parse(lenientList(v.picklist(FILTER_LOOKUPS), 'lookups', 'a lookup'), x)))),
  }),
  v.transform((f): DescribeField => {
    // A field of a type the console does not know takes any JSON value.
    const out: DescribeField = { type: f.type ?? 'json', required: f.required ?? false, null: f.null ?? false, lookups: f.lookups ?? ([...FILTER_LOOKUPS] as FilterLookup[]) };
    if (f.choices !== undefined) out.choices = f.choices;
    if (f.to !== undefined) out.to = f.to;
    if (f.default !== undefined) out.default = f.default;
    for (const key of ['unique', 'writeOnly', 'protected'] as const) if (f[key] !== undefined) out[key] = f[key];
    for (const key of ['maxLength', 'min', 'max'] as const) if (f[key] !== undefined) out[key] = f[key];
    if (f.auto !== undefined) out.auto = f.auto;
    return out;
  }),
);

/** Names are identifiers: printable, one line, not absurdly long. */
const NAME = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,200}$/u;

/** A map of name -> entry, each entry read on its own; a bad name or entry is left out. */
function entries<T>(raw: unknown, where: string, read: (value: unknown, at: string) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    misfit(where, 'an object of names', raw);
    return out;
  }
  for (const [name, value] of Object.entries(raw)) {
    const at = `${where}.${name}`;
    if (!NAME.test(name)) {
      misfit(where, '', name, `The server sent a name in \`${where}\` that is not printable text: it is left out.`);
      continue;
    }
    const read1 = read(value, at);
    if (read1 !== undefined) out[name] = read1;
  }
  return out;
}

const modelSchema = record({
  fields: v.optional(v.unknown()),
  relations: opt(v.record(v.string(), record({ many: label, via: label })), 'relations', 'an object of {many, via}'),
  search: names('search'),
  ordering: names('ordering'),
  intents: names('intents'),
  permissions: opt(jsonObject, 'permissions', 'an object'),
});

const controllerSchema = record({
  intents: names('intents'),
  permissions: opt(v.record(v.string(), v.array(v.string())), 'permissions', 'an object of lists'),
  files: opt(v.record(v.string(), v.array(v.string())), 'files', 'an object of lists of part names'),
  readOnly: v.pipe(opt(v.unknown(), 'readOnly', 'a list'), v.transform((x) => (x === undefined ? undefined : v.parse(lenientList(label, 'readOnly', 'an intent'), x)))),
});

const collectionSchema = record({ intents: names('intents'), permissions: opt(jsonObject, 'permissions', 'an object') });

/** Runs a lenient read of one entry at its path; undefined (and a misfit) when it is not an object. */
function one<S extends v.GenericSchema>(schema: S, value: unknown, at: string, expected: string): v.InferOutput<S> | undefined {
  return v.parse(lenient(schema, undefined, at, expected), value);
}

function readModel(value: unknown, at: string): DescribeModel | undefined {
  const m = one(modelSchema, value, at, 'a model {fields, intents, …}');
  if (!m) return undefined;
  const fields = entries(m.fields, `${at}.fields`, (f, fieldAt) => one(fieldSchema, f, fieldAt, 'a field {type, …}'));
  return { fields, relations: m.relations ?? {}, search: m.search ?? [], ordering: m.ordering ?? [], intents: m.intents ?? [], permissions: m.permissions ?? {} };
}

function readController(value: unknown, at: string): DescribeController | undefined {
  const c = one(controllerSchema, value, at, 'a controller {intents, …}');
  if (!c) return undefined;
  return { intents: c.intents ?? [], permissions: c.permissions ?? {}, ...(c.files ? { files: c.files } : {}), ...(c.readOnly ? { readOnly: c.readOnly } : {}) };
}

function readCollection(value: unknown, at: string): DescribeCollection | undefined {
  const c = one(collectionSchema, value, at, 'a collection {intents, …}');
  return c ? { intents: c.intents ?? [], permissions: c.permissions ?? {} } : undefined;
}

function readApp(value: unknown, at: string): DescribeApp | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    misfit(at, 'an app {models, controllers, collections}', value);
    return undefined;
  }
  const app = value as Record<string, unknown>;
  return {
    models: entries(app.models, `${at}.models`, readModel),
    controllers: entries(app.controllers, `${at}.controllers`, readController),
    collections: entries(app.collections, `${at}.collections`, readCollection),
  };
}

/** A limit the console reads when the server reports it; older servers report fewer (WorkspaceLimits). */
const reportedLimit = (key: string) => v.optional(lenient(count, undefined, key, 'a count'));

const limitsSchema = v.pipe(
  record({
    defaultLimit: v.optional(lenient(count, 100, 'defaultLimit', 'a count'), 100),
    maxLimit: v.optional(lenient(count, 1000, 'maxLimit', 'a count'), 1000),
    maxFileBytes: v.optional(lenient(count, 0, 'maxFileBytes', 'a count'), 0),
    maxBodyBytes: v.optional(lenient(count, 0, 'maxBodyBytes', 'a count'), 0),
    maxQueriesPerRequest: reportedLimit('maxQueriesPerRequest'),
    maxValueBytes: reportedLimit('maxValueBytes'),
    maxAnswerBytes: reportedLimit('maxAnswerBytes'),
    maxNested: reportedLimit('maxNested'),
    maxUploadBytes: reportedLimit('maxUploadBytes'),
    maxStreamEvents: reportedLimit('maxStreamEvents'),
    requestsPerMinute: reportedLimit('requestsPerMinute'),
  }),
  // A limit the server did not report (or reported as something else) is absent, not undefined.
  v.transform((limits) => Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as typeof limits),
);

const describeSchema = v.pipe(
  record({
    version: v.optional(lenient(label, '?', 'version', 'text'), '?'),
    workspace: v.optional(lenient(label, 'a workspace', 'workspace', 'text'), 'a workspace'),
    mode: v.optional(lenient(v.picklist(['development', 'production'] as const), 'development' as const, 'mode', 'development or production'), 'development'),
    limits: v.optional(lenient(limitsSchema, undefined, 'limits', 'an object of counts')),
    apps: v.unknown(),
    extensions: v.optional(v.unknown()),
  }),
  v.transform((d): DescribeResult | null => {
    if (typeof d.apps !== 'object' || d.apps === null || Array.isArray(d.apps)) {
      misfit('apps', 'an object of apps', d.apps);
      return null;
    }
    return {
      version: d.version ?? '?',
      workspace: d.workspace ?? 'a workspace',
      mode: d.mode ?? 'development',
      limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 0, maxBodyBytes: 0, ...d.limits },
      apps: entries(d.apps, 'apps', readApp),
      // Only the extensions the console knows how to use; anything else is ignored, not a misfit.
      ...(Array.isArray(d.extensions) ? { extensions: d.extensions.filter((e): e is ProtocolExtension => e === 'seeAs' || e === 'whyNot') } : {}),
    };
  }),
);

export interface DescribeRead {
  /** Null when the payload is no describe at all (no `apps`). */
  describe: DescribeResult | null;
  misfits: Misfit[];
}

/** The describe payload (`__payload__` of system.Schema.describe) read into the console's type. */
export function readDescribe(payload: unknown): DescribeRead {
  const { value, misfits } = readPart(describeSchema, payload, null, '', 'a describe {version, apps, …}');
  return { describe: value, misfits };
}
