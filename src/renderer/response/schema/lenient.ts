/**
 * How the boundary reads what a server sent: with a valibot schema per part, where each part that
 * does not fit is replaced by a safe value and named in one sentence ("the server sent
 * `__errors__[0].detail.exception` as an object, not text"), its raw value kept for the user to
 * see. A misfit never throws and never spreads: one ill-typed key costs that key, not the answer.
 *
 * Parsing is synchronous, so the misfits of one read are gathered in a frame set for its duration
 * (`readPart`); `lenient` schemas nested inside push to it with their path.
 */
import * as v from 'valibot';

export interface Misfit {
  /** Where in the answer, with the server's own key names: `__system__.sql[1]`. */
  where: string;
  /** One sentence that names what did not fit. */
  sentence: string;
  /** The value as it came, kept so the user can see it. */
  raw: unknown;
}

interface Frame {
  prefix: string;
  out: Misfit[];
}

let current: Frame | null = null;

const join = (prefix: string, where: string) => (!prefix ? where : !where ? prefix : where.startsWith('[') ? `${prefix}${where}` : `${prefix}.${where}`);

/** How a value reads in a sentence: short values as themselves, others by their kind. */
export function describeValue(raw: unknown): string {
  if (raw === undefined) return 'nothing';
  if (raw === null) return 'null';
  if (typeof raw === 'number') return String(raw);
  if (typeof raw === 'boolean') return String(raw);
  if (typeof raw === 'string') return raw.length <= 24 && !/[\p{Cc}\p{Cf}]/u.test(raw) ? `the text ${JSON.stringify(raw)}` : 'text';
  if (Array.isArray(raw)) return 'a list';
  return 'an object';
}

/** Records a misfit in the current read (a no-op outside one). */
export function misfit(where: string, expected: string, raw: unknown, sentence?: string): void {
  if (!current) return;
  const full = join(current.prefix, where);
  current.out.push({ where: full, raw, sentence: sentence ?? `The server sent ${full ? `\`${full}\`` : 'its answer'} as ${describeValue(raw)}, not ${expected}.` });
}

/** Runs `schema` on `input` with `where` appended to the path of any misfit found inside. */
function within<S extends v.GenericSchema>(schema: S, input: unknown, where: string): v.SafeParseResult<S> {
  const outer = current;
  current = outer ? { prefix: join(outer.prefix, where), out: outer.out } : null;
  try {
    return v.safeParse(schema, input);
  } finally {
    current = outer;
  }
}

/**
 * `schema`, or `fallback` when the value does not fit it (recorded as a misfit at `where`, with
 * `expected` naming what was wanted: "text", "a list", "a count (0 or more)").
 */
export function lenient<S extends v.GenericSchema, F>(schema: S, fallback: F, where: string, expected: string) {
  return v.pipe(
    // "optional" so that, as an object's entry, a missing key is no issue: the entry is absent.
    v.optional(v.unknown()),
    v.transform((input): v.InferOutput<S> | F => {
      const mark = current?.out.length ?? 0;
      const result = within(schema, input, where);
      if (result.success) return result.output;
      // What nested parts said is moot once the whole part is replaced.
      if (current) current.out.length = mark;
      misfit(where, expected, input);
      return fallback;
    }),
  );
}

/** A list of `entry`: a value that is not a list becomes [], an entry that does not fit is left out. */
export function lenientList<S extends v.GenericSchema>(entry: S, where: string, expectedEntry: string) {
  return lenient(
    v.pipe(
      v.array(v.unknown()),
      v.transform((items) => {
        const out: Array<v.InferOutput<S>> = [];
        items.forEach((item, i) => {
          const mark = current?.out.length ?? 0;
          // Relative to the list: the lenient() around this already added `where`.
          const result = within(entry, item, `[${i}]`);
          if (result.success) out.push(result.output);
          else {
            if (current) current.out.length = mark;
            misfit(`[${i}]`, expectedEntry, item);
          }
        });
        return out;
      }),
    ),
    [] as Array<v.InferOutput<S>>,
    where,
    'a list',
  );
}

/** Reads one part of an answer: its value (or `fallback`) and every misfit found in it. */
export function readPart<S extends v.GenericSchema, F>(schema: S, input: unknown, fallback: F, where = '', expected = 'what the protocol says'): { value: v.InferOutput<S> | F; misfits: Misfit[] } {
  const outer = current;
  const frame: Frame = { prefix: where, out: [] };
  current = frame;
  try {
    const result = v.safeParse(schema, input);
    if (result.success) return { value: result.output, misfits: frame.out };
    frame.out.length = 0;
    current = { prefix: '', out: frame.out };
    misfit(where, expected, input);
    return { value: fallback, misfits: frame.out };
  } finally {
    current = outer;
  }
}

/** Runs `read` in a frame of its own (several `readPart`s in a row), returning what it found. */
export function collectMisfits<T>(read: () => T): { value: T; misfits: Misfit[] } {
  const outer = current;
  const frame: Frame = { prefix: '', out: [] };
  current = frame;
  try {
    return { value: read(), misfits: frame.out };
  } finally {
    current = outer;
  }
}

/** Parses a nested part inside a read already under way, at `where` (e.g. one model of a describe). */
export function readWithin<S extends v.GenericSchema, F>(schema: S, input: unknown, fallback: F, where: string, expected: string): v.InferOutput<S> | F {
  return v.parse(lenient(schema, fallback, where, expected), input);
}
