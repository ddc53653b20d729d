/**
 * Bidi overrides, isolates and zero-width characters in data (U+202E turns "closed" into
 * "desolc" on screen; U+200B makes two column names look the same) drawn as a visible, marked
 * placeholder such as ⟨U+202E⟩ (issue 31 item 5). Only what is drawn changes: search, copy and
 * the Raw view keep the real characters.
 */
import type { JSX } from 'react';

const CONTROL_CLASS = '[\\u061C\\u200B-\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFEFF]';
/** Stateless (no /g): safe to reuse across calls. */
const HAS_CONTROL = new RegExp(CONTROL_CLASS);

export type TextPart = { text: string } | { control: string };

/** The placeholder drawn for one such character: ⟨U+202E⟩. */
export function controlLabel(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The text cut into plain runs and the characters to draw as placeholders, in order. */
export function splitControls(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(new RegExp(CONTROL_CLASS, 'g'))) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ control: match[0] });
    at = match.index + 1;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at) });
  return parts;
}

/** The text as the placeholders show it (for titles and other plain-text places). */
export function visibleText(text: string): string {
  return splitControls(text)
    .map((part) => ('control' in part ? controlLabel(part.control) : part.text))
    .join('');
}

/** Draws `text` with each bidi or zero-width character as a marked placeholder. */
export function VisibleControls({ text }: { text: string }): JSX.Element {
  if (!HAS_CONTROL.test(text)) return <>{text}</>;
  return (
    <>
      {splitControls(text).map((part, i) =>
        'control' in part ? (
          <span key={i} className="visible-control" title="An invisible or direction-changing character in the data">
            {controlLabel(part.control)}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
