/** The note beside an answer that sent a key twice in one object (duplicate-keys-note.ts). */
import type { JSX } from 'react';
import type { DuplicateKeys } from '../../response/result-view.ts';
import { duplicateKeysNote } from './duplicate-keys-note.ts';

export function DuplicateKeysNote(props: { found: DuplicateKeys | null }): JSX.Element | null {
  const note = duplicateKeysNote(props.found);
  if (!note) return null;
  // A doubled envelope key changes what the whole answer means: announced, in the error tone.
  return (
    <div className={`banner ${note.envelope ? 'banner-error' : 'banner-warn'}`} role={note.envelope ? 'alert' : 'note'} data-testid="duplicate-keys">
      {note.sentences.map((sentence, i) => (
        <p key={i}>{sentence}</p>
      ))}
    </div>
  );
}
