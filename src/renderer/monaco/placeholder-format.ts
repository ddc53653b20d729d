/**
 * Formatting that never alters a `{{placeholder}}`. A bare placeholder (`"priority": {{prio}}`) is not
 * JSON, so a JSON formatter reads it as an object. Here jsonc-parser's formatter (the one Monaco's
 * JSON worker uses) runs on a copy where each bare placeholder is masked by a JSON string of the same
 * length: its edits only touch whitespace between tokens, so their offsets hold for the real text and
 * no placeholder is ever touched. Framework-free, so it is tested without Monaco.
 */
import { applyEdits, format as formatJson, type EditResult, type FormattingOptions } from 'jsonc-parser';
import { findVariables, type VariableUse } from '../state/variables.ts';

/** The text with each bare placeholder replaced by a same-length JSON string (offsets unchanged). */
export function maskPlaceholders(text: string, uses: VariableUse[] = findVariables(text)): string {
  let out = '';
  let last = 0;
  for (const use of uses) {
    if (use.place !== 'bare') continue;
    out += text.slice(last, use.start) + `"${'_'.repeat(use.end - use.start - 2)}"`;
    last = use.end;
  }
  return out + text.slice(last);
}

/** Formatting edits (offset, length, text) that leave every placeholder as written. */
export function placeholderSafeEdits(text: string, range: { offset: number; length: number } | undefined, options: FormattingOptions): EditResult {
  return formatJson(maskPlaceholders(text), range, options);
}

/** The text once those edits are applied. */
export function formatKeepingPlaceholders(text: string, options: FormattingOptions = { tabSize: 2, insertSpaces: true }): string {
  return applyEdits(text, placeholderSafeEdits(text, undefined, options));
}
