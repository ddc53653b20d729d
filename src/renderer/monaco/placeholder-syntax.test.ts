import { describe, expect, it } from 'vitest';
import { placeholderSyntaxErrors } from './placeholder-syntax.ts';

// The editor's test query (e2e/variables.spec.ts): valid once its placeholders are filled in.
const QUERY = `{
  "__meta__": {
    "namespace": "tickets.Ticket",
    "intent": "retrieve",
    "filter": { "priority": {{prio}}, "status": "{{status}}" },
    "limit": 3
  },
  "title": null
}`;

describe('syntax errors of a query with bare placeholders', () => {
  it('finds none where only the placeholders are not JSON (the JSON language reports "End of file expected." at the `},` of __meta__)', () => {
    expect(placeholderSyntaxErrors(QUERY)).toEqual([]);
  });

  it('still finds a real error, at its place in the text', () => {
    const broken = QUERY.replace('"limit": 3', '"limit" 3');
    const errors = placeholderSyntaxErrors(broken);
    expect(errors).toEqual([{ offset: broken.indexOf(' 3') + 1, length: 1, message: 'Colon expected.' }]);
  });

  it('leaves a query without bare placeholders to the JSON language', () => {
    expect(placeholderSyntaxErrors('{"status": "{{status}}"}')).toBeNull();
    expect(placeholderSyntaxErrors('{"a": 1,}')).toBeNull();
  });
});
