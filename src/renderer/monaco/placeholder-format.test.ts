import { describe, expect, it } from 'vitest';
import { findVariables } from '../state/variables.ts';
import { formatKeepingPlaceholders, maskPlaceholders, placeholderSafeEdits } from './placeholder-format.ts';

const pasted = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"priority": {{prio}}, "status": "{{status}}", "title__icontains": "bug {{n}}"}, "limit": {{ limit }}}}';

describe('formatting that keeps placeholders', () => {
  it('masks bare placeholders with a JSON string of the same length', () => {
    const masked = maskPlaceholders(pasted);
    expect(masked).toHaveLength(pasted.length);
    expect(() => JSON.parse(masked)).not.toThrow();
    expect(masked).toContain('"priority": "______"');
    expect(masked).toContain('"status": "{{status}}"');
  });

  it('formats the document and leaves every placeholder exactly as written', () => {
    const formatted = formatKeepingPlaceholders(pasted);
    expect(formatted).toContain('"priority": {{prio}},');
    expect(formatted).toContain('"limit": {{ limit }}');
    expect(formatted).not.toMatch(/\{ \{/);
    expect(formatted.split('\n').length).toBeGreaterThan(5);
    expect(findVariables(formatted).map((v) => v.name)).toEqual(findVariables(pasted).map((v) => v.name));
    // Formatting twice changes nothing more.
    expect(formatKeepingPlaceholders(formatted)).toBe(formatted);
  });

  it('formats only a range (format on paste) without touching a placeholder in it', () => {
    const text = `{\n  "a": 1,\n  "b":{"x":{{v}},"y":2}\n}`;
    const start = text.indexOf('{"x"');
    const edits = placeholderSafeEdits(text, { offset: start, length: text.indexOf('}\n}') + 1 - start }, { tabSize: 2, insertSpaces: true });
    const v = text.indexOf('{{v}}');
    for (const e of edits) expect(e.offset + e.length <= v || e.offset >= v + 5).toBe(true);
  });
});
