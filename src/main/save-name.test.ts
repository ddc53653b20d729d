import { describe, expect, it } from 'vitest';
import { safeFileName, savedFileName } from './save-name.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const PDF = new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n');
const PE = new Uint8Array(512);
PE.set([0x4d, 0x5a]);
PE.set([0x50, 0x45, 0, 0], 0x80);
PE.set([0x80, 0, 0, 0], 0x3c);

describe('savedFileName', () => {
  it('keeps the extension to what the content is: no report.json.exe', async () => {
    expect((await savedFileName('report.json.exe', '{"__payload__":[]}')).name).toBe('report.json');
    expect((await savedFileName('report.exe', '{"a":1}')).name).toBe('report.json');
    expect((await savedFileName('tickets-retrieve.json', '[1,2]')).name).toBe('tickets-retrieve.json');
    expect((await savedFileName('page.html', '<script>alert(1)</script>')).name).toBe('page.txt');
    expect((await savedFileName('rows.csv', 'a,b\n1,2\n')).name).toBe('rows.csv');
    expect((await savedFileName('answer.json', '<html>502 Bad Gateway</html>')).name).toBe('answer.txt');
  });

  it('tells NDJSON from JSON', async () => {
    expect((await savedFileName('events.ndjson', '{"seq":1}\n{"seq":2}\n')).name).toBe('events.ndjson');
    expect((await savedFileName('events.ndjson', '{"seq":1}\n')).name).toBe('events.ndjson');
    expect((await savedFileName('events.txt', '{"seq":1}\n{"seq":2}\n')).name).toBe('events.ndjson');
  });

  it('names binary content by its magic number, never as an executable', async () => {
    expect((await savedFileName('invoice.pdf.exe', PDF)).name).toBe('invoice.pdf');
    expect((await savedFileName('invoice.pdf', PE)).name).toBe('invoice.bin');
    expect((await savedFileName('photo.png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52))).name).toBe('photo.png');
    expect((await savedFileName('contract.bin', bytes(0xff, 0x00, 0x13, 0x37, 0x00, 0x99))).name).toBe('contract.bin');
  });

  it('drops directories and characters a file system or a reader would misread', async () => {
    expect(safeFileName('../../.bashrc')).toBe('bashrc');
    expect(safeFileName('C:\\x\\a:b?.json')).toBe('a_b_.json');
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(safeFileName('')).toBe('response.json');
    expect((await savedFileName('v1.2-notes.txt', 'hello')).name).toBe('v1.2-notes.txt');
  });
});
