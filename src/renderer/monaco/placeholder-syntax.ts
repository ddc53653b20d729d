/**
 * The JSON syntax errors of a query that holds bare placeholders (`"priority": {{prio}}`). The JSON
 * language reads `{{prio}}` as an object without a property name and recovers from it by closing
 * the wrong braces, so besides the error on the placeholder itself it reports errors where the text
 * is right (`End of file expected.` at the `}` that closes `__meta__`): errors of text that is not
 * there. Here every bare placeholder is read as a value of its own length (`0` and spaces), so the
 * offsets stay those of the text, and what jsonc-parser finds then is what is really wrong.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { findVariables } from '../state/variables.ts';

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

/** "CommaExpected" -> "Comma expected." */
const sentence = (error: ParseError): string => {
  const words = printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words[0]!.toUpperCase()}${words.slice(1)}.`;
};

/** The text's real syntax errors, or null when it has no bare placeholder (the JSON language's own are right then). */
export function placeholderSyntaxErrors(text: string): SyntaxProblem[] | null {
  const bare = findVariables(text).filter((use) => use.place === 'bare');
  if (bare.length === 0) return null;
  let read = '';
  let last = 0;
  for (const use of bare) {
    read += text.slice(last, use.start) + '0'.padEnd(use.end - use.start, ' ');
    last = use.end;
  }
  read += text.slice(last);
  const errors: ParseError[] = [];
  parse(read, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  return errors.map((error) => ({ offset: error.offset, length: Math.max(1, error.length), message: sentence(error) }));
}
