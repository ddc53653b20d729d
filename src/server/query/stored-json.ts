/**
 * A `json` field's value as it is stored: its JSON text, not parsed (issue 29.3b). A read that does not
 * look inside the value puts it in the answer as it is, and the answer's serializer writes the text
 * where the value goes. Parsing it would cost about 20 times its bytes in objects, then as much time
 * to write them out again, for the very text that is stored: the server stores a json value as
 * JSON.stringify wrote it (workspace/field-codec.ts toStored), and writing a parsed copy out again gives
 * that same text, byte for byte.
 *
 * Anything else that serializes an answer holding one (a stream frame, the answer cache's entry, the
 * weight of a repeated nested record) gets the parsed value through toJSON, as before: the same text
 * at the old cost, nothing different.
 */
import { randomBytes } from 'node:crypto';
import { parseJsonExact } from '../exact-integers.ts';

/** A stored json value's text, written verbatim by serializeAnswer. */
export class StoredJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Called by JSON.stringify: a mark to splice the text at, within serializeAnswer; the value elsewhere. */
  toJSON(): unknown {
    const splice = currentSplice;
    if (splice === null) return parseJsonExact(this.text);
    splice.texts.push(this.text);
    // Made on the first stored value only: an answer without one costs no random bytes.
    splice.mark ??= `jql-stored-json-${randomBytes(16).toString('hex')}`;
    return splice.mark;
  }
}

/** The serialization under way: the texts met in the order JSON.stringify writes them, and their mark. */
let currentSplice: { texts: string[]; mark: string | undefined } | null = null;

/**
 * The JSON text of an answer, with each StoredJson's text where its value goes: exactly
 * JSON.stringify of the same answer with every stored value parsed. Each stored value is first written
 * as one string (a random mark drawn after the values were read, so no stored string can hold it),
 * and the text is then cut at the marks and joined with the stored texts, in the order written.
 */
export function serializeAnswer(body: unknown): string {
  const splice: { texts: string[]; mark: string | undefined } = { texts: [], mark: undefined };
  currentSplice = splice;
  let text: string;
  try {
    text = JSON.stringify(body);
  } finally {
    currentSplice = null;
  }
  if (splice.mark === undefined) return text;
  const parts = text.split(`"${splice.mark}"`);
  // Never otherwise, by the mark's 128 random bits; should it happen, the plain path answers.
  if (parts.length !== splice.texts.length + 1) return JSON.stringify(body);
  let out = parts[0] as string;
  for (let i = 0; i < splice.texts.length; i++) out += (splice.texts[i] as string) + (parts[i + 1] as string);
  return out;
}
