/**
 * The Diff view lists each side's errors with their field: a field with a zero-width space is
 * another field than the one it imitates (issue 31 item 5), so the difference must be visible.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorsSideBySide } from './DiffSections.tsx';

describe('the Diff view\'s errors', () => {
  it('draws a zero-width space in an error\'s field as a placeholder', () => {
    const html = renderToStaticMarkup(
      <ErrorsSideBySide left={[{ code: 'unknown_field', message: 'No such field', field: 'title' }]} right={[{ code: 'unknown_field', message: 'No such field', field: 'ti\u200Btle' }]} />,
    );
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('(title)');
    expect(text).toContain('(ti⟨U+200B⟩tle)');
    expect(text).not.toContain('\u200B');
  });
});
