// The SQL view's parameters are data a server sent: a bidi or zero-width character is drawn as a
// visible placeholder (issue 31 item 5) and a 64-bit id as its digits (item 4).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../response/normalize-envelope.ts';
import { SqlPanel } from './SqlPanel.tsx';

describe('the SQL view', () => {
  it('draws bidi and zero-width characters in parameters visibly, and big numbers by their digits', () => {
    const text = '{"__payload__":[],"__errors__":null,"__system__":{"queries":1,"time_ms":1,"sql":[{"sql":"SELECT * FROM t WHERE id = ? AND s = ? AND k = ?","params":[9007199254740993,"\\u202Egnp.exe","ti\\u200Btle"],"time_ms":0.1}]}}';
    const system = normalizeText(text, 200).system;
    const html = renderToStaticMarkup(<SqlPanel system={system} level={2} onAskForSql={() => undefined} />);
    expect(html).toContain('9007199254740993');
    expect(html).toContain('⟨U+202E⟩');
    expect(html).toContain('⟨U+200B⟩');
    expect(html).not.toMatch(/[\u202E\u200B\uE000]/);
  });
});
