/**
 * How much of the body the Raw view lays out. One wrapped line of 200 KB (a minified answer, a
 * payload nested 100,000 deep) takes the window about a second to lay out, all in one task, and the
 * time grows faster than the text (issue 31: deep-nesting, columns-5000). So the view draws the
 * first RAW_DRAWN_CHARS characters, says what it left out, and draws the rest when asked; a search
 * match past the cut is drawn up to when it becomes the current one. What is drawn is always the
 * body's own text from its start, so selecting and copying still gives the bytes as sent.
 */

export const RAW_DRAWN_CHARS = 64 * 1024;

export interface RawDrawn {
  /** The start of the text that is laid out. */
  drawn: string;
  /** What was left out, or null when the whole text is drawn. */
  cut: string | null;
}

/**
 * `all`: the person asked for all of it; `reveal`: an offset that must be drawn (the end of the
 * current search match), past the cap.
 */
export function rawDrawn(text: string, options: { all: boolean; reveal?: number }, cap = RAW_DRAWN_CHARS): RawDrawn {
  let end = options.all ? text.length : Math.max(cap, options.reveal ?? 0);
  if (end >= text.length) return { drawn: text, cut: null };
  // Never half of a surrogate pair: the drawn text ends on a whole character.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end += 1;
  const left = text.length - end;
  return {
    drawn: text.slice(0, end),
    cut: `Showing the first ${end.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters; ${left.toLocaleString('en')} more are not drawn yet.`,
  };
}
