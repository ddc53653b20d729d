import { describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../../shared/protocol.ts';
import type { ServerTarget } from '../../transport/jql-client.ts';
import type { UploadPart, UploadPlan } from './build-upload.ts';
import { absoluteFileUrl, fileAccess, findFileLinks } from './file-links.ts';
import { labelField, pickerOptions, pickerQuery, uniqueObjectText } from './record-picker.ts';
import { buildUploadRequest, progressFraction, sendUpload } from './send-upload.ts';
import { file, uploadDescribe } from './upload.fixture.ts';
import { createXhrUploadTransport, toFormData, UploadCancelledError, UploadNetworkError, type UploadTransport, type XhrLike } from './upload-transport.ts';

/** Node has no ProgressEvent; the transport reads only these three members. */
const progressEvent = (loaded: number, total: number, lengthComputable = true) => ({ loaded, total, lengthComputable }) as ProgressEvent;

class FakeXhr implements XhrLike {
  withCredentials = false;
  responseType: XMLHttpRequestResponseType = '';
  status = 0;
  statusText = '';
  response: unknown = null;
  upload: XhrLike['upload'] = { onprogress: null };
  onload: XhrLike['onload'] = null;
  onerror: XhrLike['onerror'] = null;
  onabort: XhrLike['onabort'] = null;
  ontimeout: XhrLike['ontimeout'] = null;
  opened: [string, string] | null = null;
  headers: Record<string, string> = {};
  sent: FormData | null = null;
  aborted = false;
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.(progressEvent(0, 0));
  }
  answer(status: number, body: string) {
    this.status = status;
    this.statusText = status === 200 ? 'OK' : 'Error';
    this.response = new TextEncoder().encode(body).buffer;
    this.onload?.(progressEvent(0, 0));
  }
}

const parts: UploadPart[] = [
  { kind: 'field', name: 'query', value: '{"__meta__":{}}' },
  { kind: 'file', name: 'file', file: file('a.txt', 3, 'text/plain'), field: 'file' },
];

describe('createXhrUploadTransport', () => {
  it('PUTs the parts as FormData, reports progress and resolves with the body', async () => {
    const xhr = new FakeXhr();
    let clock = 100;
    const transport = createXhrUploadTransport(() => xhr, () => clock);
    const progress: unknown[] = [];
    const pending = transport.upload(
      { connectionId: 'c1', url: 'http://h/jql', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' }, withCredentials: true, parts },
      { onProgress: (p) => progress.push(p) },
    );
    expect(xhr.opened).toEqual(['PUT', 'http://h/jql']);
    expect(xhr.headers).toEqual({ Authorization: 'Bearer t' });
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.responseType).toBe('arraybuffer');
    expect(xhr.sent?.get('query')).toBe('{"__meta__":{}}');
    expect((xhr.sent?.get('file') as File).name).toBe('a.txt');
    xhr.upload.onprogress?.(progressEvent(1, 3));
    xhr.upload.onprogress?.(progressEvent(2, 0, false));
    clock = 150;
    xhr.answer(200, '{"ok":1}');
    const response = await pending;
    expect(progress).toEqual([{ loaded: 1, total: 3 }, { loaded: 2, total: null }]);
    expect(response).toMatchObject({ status: 200, timeMs: 50 });
    expect(new TextDecoder().decode(response.body)).toBe('{"ok":1}');
  });

  it('cancels through the AbortSignal, before or during the upload', async () => {
    const xhr = new FakeXhr();
    const transport = createXhrUploadTransport(() => xhr);
    const controller = new AbortController();
    const pending = transport.upload({ connectionId: 'c1', url: 'u', headers: {}, withCredentials: false, parts }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(UploadCancelledError);
    expect(xhr.aborted).toBe(true);

    await expect(transport.upload({ connectionId: 'c1', url: 'u', headers: {}, withCredentials: false, parts }, { signal: controller.signal })).rejects.toBeInstanceOf(UploadCancelledError);
  });

  it('turns a network failure into UploadNetworkError', async () => {
    const xhr = new FakeXhr();
    const pending = createXhrUploadTransport(() => xhr).upload({ connectionId: 'c1', url: 'http://gone/jql', headers: {}, withCredentials: false, parts }, {});
    xhr.onerror?.(progressEvent(0, 0));
    await expect(pending).rejects.toBeInstanceOf(UploadNetworkError);
  });

  it('keeps part order in FormData', () => {
    expect([...toFormData(parts).keys()]).toEqual(['query', 'file']);
  });
});

const server: ServerTarget = { connectionId: 'c1', baseUrl: 'http://127.0.0.1:8787/api/', authClass: 'jwt', token: 'tok' };

describe('sendUpload', () => {
  const plan: UploadPlan = { query: { __meta__: { namespace: 'tickets.Document', intent: 'create' } }, parts };

  it('addresses PUT {base}/jql with the bearer token', () => {
    expect(buildUploadRequest(server, plan)).toEqual({ connectionId: 'c1', url: 'http://127.0.0.1:8787/api/jql', headers: { Accept: 'application/json', Authorization: 'Bearer tok' }, withCredentials: false, parts });
    expect(buildUploadRequest({ ...server, authClass: 'session', token: null }, plan).withCredentials).toBe(true);
  });

  it('reads the envelope and the file links of the created record', async () => {
    const record = { id: 5, title: 'x', file: { name: 'a.txt', size: 3, content_type: 'text/plain', sha256: 'ab', url: '/api/jql/files/f1' } };
    const transport: UploadTransport = {
      async upload(_request, { onProgress }) {
        onProgress?.({ loaded: 3, total: 3 });
        const body = JSON.stringify({ __payload__: record, __message__: null, __extras__: { queries: 2 }, __errors__: null, __system__: null, __intent__: 'create' });
        return { status: 200, statusText: 'OK', body: new TextEncoder().encode(body).buffer, timeMs: 12 };
      },
    };
    const seen: number[] = [];
    const outcome = await sendUpload(transport, server, plan, { onProgress: (p) => seen.push(p.loaded), describe: uploadDescribe });
    expect(seen).toEqual([3]);
    expect(outcome.view.failed).toBe(false);
    expect(outcome.view.sections[0]?.payload).toEqual(record);
    expect(outcome.links).toEqual([{ path: 'file', value: record.file, href: 'http://127.0.0.1:8787/api/jql/files/f1', signed: false, expiresAt: null }]);
    expect(outcome.queryText).toContain('"namespace": "tickets.Document"');
  });

  it('reads an error envelope without links', async () => {
    const transport: UploadTransport = {
      async upload() {
        const body = JSON.stringify({ __payload__: null, __message__: null, __extras__: null, __errors__: [{ code: 'payload_too_large', message: 'too big', field: 'file' }], __system__: null, __intent__: 'create' });
        return { status: 413, statusText: 'Payload Too Large', body: new TextEncoder().encode(body).buffer, timeMs: 3 };
      },
    };
    const outcome = await sendUpload(transport, server, plan);
    expect(outcome.view.failed).toBe(true);
    expect(outcome.view.sections[0]?.errors[0]?.code).toBe('payload_too_large');
    expect(outcome.links).toEqual([]);
  });

  it('computes progress fractions', () => {
    expect(progressFraction(null)).toBeNull();
    expect(progressFraction({ loaded: 5, total: null })).toBeNull();
    expect(progressFraction({ loaded: 5, total: 10 })).toBe(0.5);
    expect(progressFraction({ loaded: 15, total: 10 })).toBe(1);
  });
});

describe('file links', () => {
  const signed = { name: 'p.zip', size: 9, content_type: 'application/zip', sha256: 'cd', url: '/jql/files/f2?expires=1800000000&signature=abc' };
  const f = (type: string, extra: object = {}) => ({ type, required: false, null: true, lookups: [], ...extra });
  const model = (fields: object, relations: object = {}) => ({ fields, relations, search: [], ordering: [], intents: [], permissions: {} });
  const describeOf = {
    ...uploadDescribe,
    apps: {
      docs: {
        models: {
          Folder: model({ name: f('string') }, { documents: { many: 'docs.Document', via: 'folder' } }),
          Document: model({ folder: f('ref', { to: 'docs.Folder' }), file: f('file'), meta: f('json') }),
          Ticket: model({ meta: f('json'), attachment: f('file'), owner: f('ref', { to: 'docs.Document' }) }),
        },
        controllers: {},
        collections: {},
      },
    },
  } as unknown as DescribeResult;

  it('finds file values where describe declares file fields, through relations and references, and reads signed URLs', () => {
    const folder = { id: 1, name: 'x', documents: [{ id: 2, file: signed }, { id: 3, file: { ...signed, url: '/jql/files/f3' } }] };
    const links = findFileLinks(folder, describeOf, 'docs.Folder', 'https://remote.example/base');
    expect(links.map((l) => [l.path, l.href, l.signed])).toEqual([
      ['documents.0.file', 'https://remote.example/jql/files/f2?expires=1800000000&signature=abc', true],
      ['documents.1.file', 'https://remote.example/jql/files/f3', false],
    ]);
    expect(links[0]?.expiresAt?.toISOString()).toBe(new Date(1_800_000_000_000).toISOString());
    const ticket = { attachment: signed, owner: { id: 2, file: { ...signed, url: '/jql/files/f4' } } };
    expect(findFileLinks(ticket, describeOf, 'docs.Ticket', 'http://h').map((l) => l.path)).toEqual(['attachment', 'owner.file']);
  });

  it('never takes a file-shaped value from a json field, an unknown key or an answer without describe (issue 21.2)', () => {
    const planted = { ...signed, url: 'http://collector.example/steal' };
    const ticket = { meta: { evidence: planted, nested: { deeper: planted } }, extra: planted, attachment: null };
    expect(findFileLinks(ticket, describeOf, 'docs.Ticket', 'http://h')).toEqual([]);
    expect(findFileLinks({ attachment: signed }, null, 'docs.Ticket', 'http://h')).toEqual([]);
    expect(findFileLinks({ attachment: signed }, describeOf, 'docs.Unknown', 'http://h')).toEqual([]);
  });

  it('links a declared file only when its url is a path on the connection origin', () => {
    for (const url of ['http://collector.example/x', '//collector.example/x', '/\\collector.example/x', 'https://h/jql/files/1', 'javascript:alert(1)']) {
      expect(findFileLinks({ attachment: { ...signed, url } }, describeOf, 'docs.Ticket', 'http://h'), url).toEqual([]);
      expect(absoluteFileUrl(url, 'http://h'), url).toBeNull();
    }
    expect(absoluteFileUrl('/x', 'not a url')).toBeNull();
    expect(absoluteFileUrl('/api/jql/files/1', 'http://h:1/api')).toBe('http://h:1/api/jql/files/1');
  });

  it('decides between a plain link and an authenticated fetch', () => {
    const [signedLink, plain] = findFileLinks([{ attachment: signed }, { attachment: { ...signed, url: '/jql/files/f3' } }], describeOf, 'docs.Ticket', 'http://h');
    expect(fileAccess(signedLink!, 'jwt', true)).toBe('link');
    expect(fileAccess(plain!, 'jwt', true)).toBe('fetch');
    expect(fileAccess(plain!, 'session', false)).toBe('link');
    expect(fileAccess(plain!, 'jwt', false)).toBe('link');
  });
});

describe('record picker', () => {
  const ticket = uploadDescribe.apps.tickets!.models.Ticket!;

  it('retrieves candidates by search or by id', () => {
    expect(labelField(ticket)).toBe('title');
    expect(pickerQuery('tickets.Ticket', ticket, '')).toEqual({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 50 }, id: null, title: null });
    expect(pickerQuery('tickets.Ticket', ticket, ' printer ').__meta__.search).toEqual({ value: 'printer' });
    expect(pickerQuery('tickets.Ticket', ticket, '12').__meta__.filter).toEqual({ id: 12 });
  });

  it('labels options and writes the uniqueObject', () => {
    expect(pickerOptions([{ id: 1, title: 'A' }, { id: 2 }, 'junk'], ticket)).toEqual([{ id: 1, label: '#1 · A' }, { id: 2, label: '#2' }]);
    expect(pickerOptions(null, ticket)).toEqual([]);
    expect(uniqueObjectText(4)).toBe('{"id":4}');
  });
});
