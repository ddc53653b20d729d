// The Saved view shows values a server sent (an assertion's actual value and why it failed, a
// snapshot's differences): bidi and zero-width characters in them are drawn as visible placeholders
// (issue 31 item 5), so "\u202Edesolc" cannot read as "closed" there either.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROW } from './assertion-rows.ts';
import { AssertionsTable } from './AssertionsTable.tsx';
import { SnapshotResult } from './SnapshotResult.tsx';

const HIDDEN = /[\u202E\u200B]/;
/** The text a person reads: the markup's tags left out. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '');

describe('values a server sent, in the Saved view', () => {
  it('draws them with placeholders in an assertion result and its tooltip', () => {
    const html = renderToStaticMarkup(
      <AssertionsTable
        rows={[{ ...EMPTY_ROW, target: 'path', path: '$.__payload__[0].status', value: '"closed"' }]}
        results={[{ assertion: { target: 'path', path: '$.__payload__[0].status', op: 'eq', value: 'closed' }, passed: false, actual: '\u202Edesolc', message: 'Expected "closed", got "\u202Edesolc"' }]}
        problems={[null]}
        onChange={() => undefined}
      />,
    );
    expect(textOf(html)).toContain('actual &quot;⟨U+202E⟩desolc&quot;');
    expect(html).toContain('title="Expected &quot;closed&quot;, got &quot;⟨U+202E⟩desolc&quot;"');
    expect(html).not.toMatch(HIDDEN);
  });

  it('draws them with placeholders in a snapshot difference', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <SnapshotResult outcome={{ state: 'differs', changes: [{ kind: 'changed', path: '$.__payload__[id=1].ti\u200Btle', record: '1', approved: 'open', actual: '\u202Edesolc' }], actual: null }} onApprove={undefined} />
      </QueryClientProvider>,
    );
    expect(textOf(html)).toContain('~ $.__payload__[id=1].ti⟨U+200B⟩tle: &quot;open&quot; -&gt; &quot;⟨U+202E⟩desolc&quot;');
    expect(html).not.toMatch(HIDDEN);
  });
});
