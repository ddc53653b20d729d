import { describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../shared/protocol.ts';
import { ERROR_STATUS, type ErrorCode } from '../../shared/error-codes.ts';
import { headingAnchor } from '../components/doc-anchors.ts';
import protocolDoc from '../../../docs/protocol.md?raw';
import { demoDescribe as DESCRIBE } from './describe.fixture.ts';
import { protocolHoverAt } from './protocol-hover-content.ts';
import { errorAnchor, intentAnchor, LOOKUPS_ANCHOR, META_HELP, ROOT_META_HELP } from './protocol-help.ts';

/** The hover over the first occurrence of `word` in `text` (the cursor one character into it). */
function hoverOver(text: string, word: string, describe: DescribeResult | null = DESCRIBE) {
  const at = text.indexOf(word);
  if (at < 0) throw new Error(`${word} is not in the text`);
  return protocolHoverAt(text, at + 1, describe);
}

const query = JSON.stringify(
  { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priority__gte: 4, 'assignee.username': 'x' }, limit: 5 }, title: null },
  null,
  2,
);

const anchors = new Set([...protocolDoc.matchAll(/^#{1,6} (.*)$/gm)].map((m) => headingAnchor(m[1]!.replaceAll('`', ''))));

describe('protocol hovers', () => {
  it('explain a __meta__ key and link to its section', () => {
    const hover = hoverOver(query, '"limit"');
    expect(hover?.contents[0]).toContain('`limit`');
    expect(hover?.contents[0]).toContain('How many records at most');
    expect(hover?.contents[1]).toMatch(/^\[Read more in the protocol docs\]\(command:jql\.openDocs\?.*limit-offset-and-draw/);
  });

  it('explain a lookup suffix with the field it applies to', () => {
    const hover = hoverOver(query, '"priority__gte"');
    expect(hover?.contents.join('\n')).toContain('Field `priority`: `integer`');
    expect(hover?.contents.join('\n')).toContain('Lookup `__gte`: greater than or equal');
    expect(hover?.contents.at(-1)).toContain(encodeURIComponent(JSON.stringify(['protocol', 'lookups'])));
  });

  it('explain an intent, a data key and an error code', () => {
    expect(hoverOver(query, '"retrieve"')?.contents[0]).toBe('Intent `retrieve`: Records matching filter/exclude/search, ordered and paged.');
    expect(hoverOver(query, '"title"')?.contents[0]).toMatch(/^Field `title`: `string`/);
    const error = hoverOver('{"errors": ["unknown_field"]}', '"unknown_field"');
    expect(error?.contents[0]).toBe('Error code `unknown_field`: A field path that does not exist or may not be read\\.');
    expect(error?.contents[1]).toContain(encodeURIComponent(JSON.stringify(['protocol', 'unknown_field'])));
  });

  it('say nothing over words that are not the protocol\'s', () => {
    expect(hoverOver(query, '"x"')).toBeNull();
    expect(protocolHoverAt('{"a": 1}', 2, null)).toBeNull();
    expect(protocolHoverAt('not json', 2, null)).toBeNull();
  });

  it('render names from describe as code, never as HTML or links', () => {
    const hostile = {
      ...DESCRIBE,
      apps: { evil: { models: {}, collections: {}, controllers: { '<img src=x onerror=alert(1)>': { intents: ['http://evil.example/`pwn`'], permissions: {} } } } },
    } as unknown as DescribeResult;
    const text = JSON.stringify({ __meta__: { namespace: 'evil.<img src=x onerror=alert(1)>', intent: 'http://evil.example/`pwn`', schema: 'controller' } });
    const namespace = hoverOver(text, '"evil.', hostile)!.contents[0]!;
    expect(namespace).toBe('Controller `evil.<img src=x onerror=alert(1)>`: intents `` http://evil.example/`pwn` ``.');
    const intent = hoverOver(text, '"http:', hostile)!.contents[0]!;
    expect(intent).toBe('Intent `` http://evil.example/`pwn` `` of the controller `evil.<img src=x onerror=alert(1)>`.');
    // Bidi and control characters never reach the hover.
    const bidi = hoverOver(JSON.stringify({ __meta__: { namespace: 'a.\u202Eexe.png', intent: 'x' } }), '"a.', null)!.contents[0]!;
    expect(bidi).toBe('Namespace `a.exe.png`.');
  });

  it('link only to sections docs/protocol.md has', () => {
    const used = [
      ...Object.values(META_HELP).map((h) => h.anchor),
      ...Object.values(ROOT_META_HELP).map((h) => h.anchor),
      ...(Object.keys(ERROR_STATUS) as ErrorCode[]).map(errorAnchor),
      LOOKUPS_ANCHOR,
      intentAnchor('retrieve', null),
      intentAnchor('login', 'system.User'),
      intentAnchor('describe', 'system.Schema'),
      intentAnchor('addDocument', 'documents.Folder'),
      'the-query-document',
      'field-selection',
    ];
    expect(used.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });

  it('finds docs/protocol.md headings unique, so every anchor names one section', () => {
    const all = [...protocolDoc.matchAll(/^#{1,6} (.*)$/gm)].map((m) => headingAnchor(m[1]!.replaceAll('`', '')));
    expect(all.filter((anchor, i) => all.indexOf(anchor) !== i)).toEqual([]);
  });
});
