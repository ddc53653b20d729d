import { describe, expect, it } from 'vitest';
import { contentDisposition, parseRange, safeFileName } from './file-headers.ts';
import { cleanFileName } from './file-name.ts';
import { cleanContentType } from './intake.ts';
import { checkSignature, createUrlSigner, signatureOf } from './signed-url.ts';

describe('Content-Disposition', () => {
  it('gives a quoted ASCII name and an RFC 8187 UTF-8 name, inline only for harmless types', () => {
    expect(contentDisposition('report.pdf', 'application/pdf')).toBe(`inline; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(contentDisposition('page.html', 'text/html')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(contentDisposition('naïve "quote" 100%.txt', 'text/plain; charset=utf-8')).toBe(
      `inline; filename="na_ve _quote_ 100_.txt"; filename*=UTF-8''na%C3%AFve%20%22quote%22%20100%25.txt`,
    );
  });

  it('never yields a path, a control character, a hidden name or an empty name', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\secret.txt')).toBe('secret.txt');
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('.bashrc')).toBe('bashrc');
    expect(safeFileName('a\r\nSet-Cookie: x=1')).toBe('aSet-Cookie: x=1');
    expect(contentDisposition('', 'text/plain')).toContain('filename="download"');
    expect(contentDisposition("it's (1).txt", 'x/y')).toContain(`filename*=UTF-8''it%27s%20%281%29.txt`);
  });
});

describe('Range', () => {
  it('reads one byte range, a suffix and an open end', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
  });

  it('answers unsatisfiable past the end and ignores what it does not serve', () => {
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('bytes=5-2', 10)).toBeNull();
    expect(parseRange('items=0-1', 10)).toBeNull();
    expect(parseRange('bytes=-', 10)).toBeNull();
  });
});

describe('signed file URLs', () => {
  const secret = Buffer.from('test secret');
  const now = 1_800_000_000_000;

  it('signs protected URLs for 15 minutes and leaves unprotected ones plain', () => {
    const sign = createUrlSigner(secret, '/api', () => now);
    expect(sign('abc', false)).toBe('/api/jql/files/abc');
    const url = new URL(sign('abc', true), 'http://x');
    expect(url.pathname).toBe('/api/jql/files/abc');
    const expires = url.searchParams.get('expires');
    expect(Number(expires)).toBe(now / 1000 + 900);
    expect(checkSignature(secret, 'abc', expires, url.searchParams.get('signature'), now)).toBe('valid');
    expect(checkSignature(secret, 'abc', expires, url.searchParams.get('signature'), now + 901_000)).toBe('expired');
  });

  it('refuses an altered id, expiry or signature, and a foreign secret', () => {
    const expires = String(now / 1000 + 60);
    const signature = signatureOf(secret, 'abc', Number(expires));
    expect(checkSignature(secret, 'abd', expires, signature, now)).toBe('invalid');
    expect(checkSignature(secret, 'abc', String(Number(expires) + 1), signature, now)).toBe('invalid');
    expect(checkSignature(secret, 'abc', expires, `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, now)).toBe('invalid');
    expect(checkSignature(Buffer.from('other'), 'abc', expires, signature, now)).toBe('invalid');
    expect(checkSignature(secret, 'abc', undefined, undefined, now)).toBe('missing');
    expect(checkSignature(secret, 'abc', expires, undefined, now)).toBe('invalid');
    expect(checkSignature(secret, 'abc', '1e12', signature, now)).toBe('invalid');
  });
});

describe('upload metadata', () => {
  it('keeps well-formed content types and file names, cleaned', () => {
    expect(cleanContentType('Text/Plain; charset=UTF-8')).toBe('text/plain; charset=utf-8');
    expect(cleanContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(cleanContentType('')).toBe('application/octet-stream');
    expect(cleanContentType('nonsense')).toBe('application/octet-stream');
    expect(cleanFileName('a\u0000b\u001fc.txt')).toBe('abc.txt');
    expect(cleanFileName('')).toBe('file');
    expect([...cleanFileName('é'.repeat(300))]).toHaveLength(255);
  });
});
