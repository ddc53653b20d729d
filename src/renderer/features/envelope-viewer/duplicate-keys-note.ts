/**
 * What the view says about keys an answer sent twice (response/duplicate-keys.ts): the console shows
 * the last of each, the Raw view shows them all. A doubled key of the envelope itself is a warning
 * in the status area; a doubled error list is the worst of these (an error list followed by
 * `"__errors__": null` would otherwise show rows and no error), so it says so in words.
 */
import type { DuplicateKeys } from '../../response/result-view.ts';
import { visibleText } from '../../components/visible-controls.tsx';

/** The envelope keys whose earlier copy may hold errors the view does not show. */
const ERROR_KEYS = new Set(['__errors__', 'errors']);
/** At most this many doubled envelope keys are named. */
const NAMED = 3;

export interface DuplicateKeysNote {
  /** Sentences, the envelope's first. */
  sentences: string[];
  /** A key of the envelope itself came twice: what the view shows may not be the answer. */
  envelope: boolean;
}

const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);
const quoted = (key: string) => `"${visibleText(key)}"`;

export function duplicateKeysNote(found: DuplicateKeys | null): DuplicateKeysNote | null {
  if (!found) return null;
  const sentences: string[] = [];
  const named = found.top.slice(0, NAMED);
  if (named.length > 0) {
    const list = named.map((t) => `${quoted(t.key)} ${times(t.times)}`).join(', ');
    const more = found.top.length > NAMED ? ` and ${found.top.length - NAMED} more keys more than once` : '';
    sentences.push(`The answer has the key ${list}${more}; the console shows the last one, Raw shows both.`);
    const errors = named.find((t) => ERROR_KEYS.has(t.key));
    if (errors) sentences.push(`An earlier ${quoted(errors.key)} may hold errors that are not shown here: read the Raw view before trusting this answer.`);
  }
  if (found.nested > 0 && found.firstNested) {
    const { where, key } = found.firstNested;
    const count = found.nested === 1 ? 'One object in the answer has' : `${found.nested.toLocaleString('en')} objects in the answer have`;
    sentences.push(`${count} a key more than once (the first: ${quoted(key)} in \`${visibleText(where) || 'the answer'}\`); the console shows the last value of each, Raw shows them all.`);
  }
  return { sentences, envelope: found.top.length > 0 };
}
