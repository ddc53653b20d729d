/**
 * The Errors and SQL views draw only the entries in their window, whatever the count (issue 31: 500
 * error cards or statements drawn at once were a layout of 8,000 boxes, a long task on every open of
 * the view). Rendered without a DOM, a list draws its first window (INITIAL_RECT): the bound is that
 * window's entries, the same for 20 entries past it as for 50,000 in the answer, and the entries past
 * the window are stood for by the list's padding, so the scrollbar spans the whole list.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { JqlError, SystemInfo } from '../../../shared/protocol.ts';
import { SHOWN_ERRORS, SHOWN_SQL } from '../../response/count-caps.ts';
import { ErrorsList } from './ErrorsList.tsx';
import { SqlPanel } from './SqlPanel.tsx';
import { INITIAL_RECT, OVERSCAN } from './VirtualList.tsx';

const errors = (n: number) => Array.from({ length: n }, (_, i) => ({ section: null, error: { code: 'validation_error', message: `Value ${i} is not valid`, field: 'title', path: ['filter', `title${i}`] } as JqlError }));
const system = (n: number): SystemInfo => ({ queries: n, time_ms: 12, sql: Array.from({ length: n }, (_, i) => ({ sql: `SELECT * FROM thing WHERE id = ? -- ${i}`, params: [i, `p${i}`], time_ms: 0.01 })) });

const items = (html: string, tag: RegExp) => html.match(tag) ?? [];
/** A screenful of the smallest entry an estimate allows, and the overscan after it. */
const WINDOW_BOUND = (estimate: number) => Math.ceil(INITIAL_RECT.height / estimate) + OVERSCAN + 1;
const paddingBottom = (html: string) => Number(/padding-bottom:(\d+(?:\.\d+)?)px/.exec(html)?.[1]);

describe('the Errors view', () => {
  it('draws a window of its list, not the 500 errors it lists, whatever the count', () => {
    const drawn = (n: number) => renderToStaticMarkup(<ErrorsList errors={errors(Math.min(n, SHOWN_ERRORS))} total={n} onReveal={() => undefined} />);
    const few = items(drawn(40), /<li /g).length;
    const many = drawn(50_000);
    expect(few).toBeGreaterThan(0);
    expect(few).toBeLessThanOrEqual(WINDOW_BOUND(20));
    expect(items(many, /<li /g)).toHaveLength(few);
    // The first ones are drawn, in order; the cut is still said; the rest is room to scroll into.
    expect(many).toContain('Value 0 is not valid');
    expect(many).not.toContain(`Value ${SHOWN_ERRORS - 1} is not valid`);
    expect(many).toContain('Showing the first 500 of 50,000 errors: 49,500 more are in the Raw view.');
    expect(paddingBottom(many)).toBeGreaterThan(paddingBottom(drawn(40)));
  });

  it('draws every error of a short list', () => {
    const html = renderToStaticMarkup(<ErrorsList errors={errors(3)} total={3} onReveal={() => undefined} />);
    expect(items(html, /<li /g)).toHaveLength(3);
    expect(html).toContain('Value 2 is not valid');
  });
});

describe('the SQL view', () => {
  it('draws a window of its statements, numbered as in the answer, whatever the count', () => {
    const drawn = (n: number) => renderToStaticMarkup(<SqlPanel system={{ ...system(Math.min(n, SHOWN_SQL)), queries: n }} unread={Math.max(0, n - SHOWN_SQL)} level={2} onAskForSql={() => undefined} />);
    const few = items(drawn(40), /data-testid="sql-statement"/g).length;
    const many = drawn(50_000);
    expect(few).toBeGreaterThan(0);
    expect(few).toBeLessThanOrEqual(WINDOW_BOUND(40));
    expect(items(many, /data-testid="sql-statement"/g)).toHaveLength(few);
    expect(many).toContain('#1 · ');
    expect(many).toContain('-- 0</pre>');
    expect(many).not.toContain(`-- ${SHOWN_SQL - 1}</pre>`);
    expect(many).toContain('Showing the first 500 of 50,000 statements: 49,500 more are in the Raw view.');
    expect(paddingBottom(many)).toBeGreaterThan(paddingBottom(drawn(40)));
  });
});
