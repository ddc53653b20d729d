import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { controlLabel, splitControls, VisibleControls, visibleText } from './visible-controls.tsx';

describe('bidi and zero-width characters drawn visibly (issue 31 item 5)', () => {
  it('draws every listed character as a placeholder', () => {
    const all = ['\u202A', '\u202E', '\u2066', '\u2069', '\u200B', '\u200F', '\u2028', '\u2029', '\uFEFF', '\u061C'];
    for (const char of all) expect(visibleText(`a${char}b`)).toBe(`a${controlLabel(char)}b`);
    expect(controlLabel('\u061C')).toBe('⟨U+061C⟩');
  });

  it('keeps "\\u202Edesolc" from reading as "closed"', () => {
    expect(visibleText('\u202Edesolc')).toBe('⟨U+202E⟩desolc');
    expect(splitControls('ti\u200Btle')).toEqual([{ text: 'ti' }, { control: '\u200B' }, { text: 'tle' }]);
  });

  it('leaves ordinary text, including other non-ASCII, alone', () => {
    expect(splitControls('héllo – 世界')).toEqual([{ text: 'héllo – 世界' }]);
    expect(splitControls('')).toEqual([{ text: '' }]);
  });

  it('renders the placeholder as a marked element, never the character itself', () => {
    const html = renderToStaticMarkup(<VisibleControls text={'\u202Edesolc and \u202Edesolc'} />);
    expect(html).not.toContain('\u202E');
    expect(html.match(/class="visible-control"/g)).toHaveLength(2);
    expect(renderToStaticMarkup(<VisibleControls text="plain" />)).toBe('plain');
  });
});
