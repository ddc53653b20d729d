import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RecordChanges, SectionView, show } from './DiffSections.tsx';
import { diffPayloads, diffResults, DiffPanel, sideFromBody } from './index.ts';

describe('DiffPanel', () => {
  it('offers the two connections and the run button', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <DiffPanel connections={[{ id: 'a', name: 'Embedded' }, { id: 'b', name: 'Staging' }]} document="{}" run={() => Promise.reject(new Error('unused'))} />
      </QueryClientProvider>,
    );
    expect(html).toContain('aria-label="Left connection"');
    expect(html).toMatch(/aria-label="Right connection"><option value="a">Embedded<\/option><option value="b" selected="">Staging/);
    expect(html).toContain('Run on both');
  });

  it('draws record changes, extras and errors of a section', () => {
    const env = (payload: unknown, errors: unknown = null) => JSON.stringify({ __payload__: payload, __errors__: errors, __extras__: { filtered: 2 }, __intent__: 'retrieve' });
    const d = diffResults(sideFromBody('L', 200, 1, env([{ id: 1, t: 'a' }, { id: 2 }])), sideFromBody('R', 200, 1, env([{ id: 1, t: 'b' }, { id: 3 }])));
    const html = renderToStaticMarkup(<SectionView section={d.sections[0]!} left="L" right="R" />);
    expect(html).toContain('1 added · 1 removed · 1 changed · 0 unchanged');
    expect(html).toContain('data-change="changed"');
    expect(html).toContain('data-change="added"');
    expect(html).toContain('data-change="removed"');
    expect(html).toContain('&quot;a&quot;');
    expect(html).toContain('aria-label="__extras__"');
  });

  it('pages long change lists', () => {
    const left = Array.from({ length: 300 }, (_, i) => ({ id: i }));
    const html = renderToStaticMarkup(<RecordChanges payload={diffPayloads(left, [])} left="Local" right="Prod" />);
    expect(html.match(/data-change="removed"/g)).toHaveLength(200);
    expect(html).toContain('Show 100 more of 100');
    expect(show(undefined)).toBe('(absent)');
    expect(show('x'.repeat(400))).toHaveLength(300);
  });
});
