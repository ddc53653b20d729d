import { describe, expect, it } from 'vitest';
import { httpOrigin, isSameOrigin } from './origin.ts';
import { plainLabel } from './plain-label.ts';

describe('httpOrigin and isSameOrigin', () => {
  it('gives the origin of http(s) and ws(s) URLs, a socket sharing its server origin', () => {
    expect(httpOrigin('https://jql.example/api/jql?x=1')).toBe('https://jql.example');
    expect(httpOrigin('wss://jql.example:443/jql-streams')).toBe('https://jql.example');
    expect(httpOrigin('ws://127.0.0.1:8787/jql-streams')).toBe('http://127.0.0.1:8787');
    expect(httpOrigin('file:///etc/passwd')).toBeNull();
    expect(httpOrigin('/jql/files/1')).toBeNull();
  });

  it('compares scheme, host and port', () => {
    expect(isSameOrigin('http://h:1/jql/files/f', 'http://h:1/base')).toBe(true);
    expect(isSameOrigin('https://h:1/x', 'http://h:1')).toBe(false);
    expect(isSameOrigin('http://h:2/x', 'http://h:1')).toBe(false);
    expect(isSameOrigin('http://evil.example/x', 'http://h:1')).toBe(false);
    expect(isSameOrigin('not a url', 'http://h:1')).toBe(false);
  });
});

describe('plainLabel', () => {
  it('drops bidi and other format characters, and turns control characters into a space', () => {
    expect(plainLabel('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(plainLabel('\u2066admin\u2069')).toBe('admin');
    expect(plainLabel('OK\r\nX-Evil: 1')).toBe('OK X-Evil: 1');
    expect(plainLabel('0.1.0')).toBe('0.1.0');
  });
});
