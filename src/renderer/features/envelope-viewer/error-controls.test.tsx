/**
 * An error's path is data the server sent (keys of the query or of a record): a key with a
 * zero-width space or a bidi isolate must not read as another key in the Errors view (issue 31
 * item 5). `ti\u200Btle` showed as "title", `a\u2066b` as "ab".
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../response/normalize-envelope.ts';
import { allErrors, errorCount } from '../../response/result-view.ts';
import { ErrorsList } from './ErrorsList.tsx';

const body = JSON.stringify({
  __payload__: null,
  __errors__: [{ code: 'validation_error', message: 'Not valid', path: ['filter', 'ti\u200Btle', 'a\u2066b\u2069', 0, 'x\u061Cy\uFEFF\u2028'] }],
});

describe('the Errors view', () => {
  it('shows bidi and zero-width characters of a path as visible placeholders', () => {
    const view = normalizeText(body, 400);
    const html = renderToStaticMarkup(<ErrorsList errors={allErrors(view)} total={errorCount(view)} onReveal={() => undefined} />);
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('path filter.ti⟨U+200B⟩tle.a⟨U+2066⟩b⟨U+2069⟩.0.x⟨U+061C⟩y⟨U+FEFF⟩⟨U+2028⟩');
    expect(text).not.toMatch(/[\u061C\u200B\u2066\u2069\uFEFF\u2028]/);
  });

  it('shows a field named with a zero-width space as such, not as the field it imitates', () => {
    // `ti\u200Btle` is another key than `title`: a query may hold both, and the error names only one.
    const view = normalizeText(JSON.stringify({ __payload__: null, __errors__: [{ code: 'validation_error', message: 'Not valid', field: 'ti\u200Btle' }] }), 400);
    expect(allErrors(view)[0]!.error.field).toBe('ti\u200Btle');
    const html = renderToStaticMarkup(<ErrorsList errors={allErrors(view)} total={errorCount(view)} onReveal={() => undefined} />);
    expect(html.replace(/<[^>]+>/g, '')).toContain('field ti⟨U+200B⟩tle');
  });
});
