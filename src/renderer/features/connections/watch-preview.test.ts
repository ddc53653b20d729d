// The Apply confirmation names every change that stops serving stored values, with its rows.
import { describe, expect, it } from 'vitest';
import { applyConfirmation } from './watch-preview.ts';

describe('applyConfirmation', () => {
  it('names each lost field or model with its rows, and nothing of the additive changes', () => {
    const text = applyConfirmation(
      [
        { kind: 'lossy', target: 'notes.Note.body', what: 'field removed', rows: 1, sample: ['"x"'] },
        { kind: 'additive', target: 'notes.Note.tag', what: 'new field', rows: null, sample: [] },
        { kind: 'lossy', target: 'notes.Old', what: 'model removed', rows: 12, sample: [] },
      ],
      'Watched',
    );
    expect(text).toBe('Apply the saved workspace file to "Watched"?\nThese stored values will no longer be served (they stay on disk):\n• notes.Note.body: 1 row\n• notes.Old: 12 rows');
  });
});
