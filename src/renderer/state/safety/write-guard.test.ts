import { describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { classifyDocument, classifyTemplate, UPLOAD_EFFECT } from './classify-document.ts';
import { defaultReadOnly, DEPLOYMENT_KINDS } from './connection-kinds.ts';
import { redactSecrets } from './redact-secrets.ts';
import { refuseInDiff, refuseWrite } from './write-guard.ts';

const q = (namespace: string, intent: string, extra: Record<string, unknown> = {}) => JSON.stringify({ __meta__: { namespace, intent, ...extra } });

const describeWith = (readOnly?: string[]): DescribeResult =>
  ({
    version: '1',
    workspace: 'demo',
    mode: 'development',
    limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1, maxBodyBytes: 1 },
    apps: { docs: { models: {}, collections: {}, controllers: { Folder: { intents: ['listDocuments', 'addDocument'], permissions: {}, ...(readOnly ? { readOnly } : {}) } } } },
  }) as DescribeResult;

describe('classifyDocument', () => {
  it('reads model and NoSQL retrieve, retrieveOne and count in either accepted spelling', () => {
    for (const intent of ['retrieve', 'retrieveOne', 'retrieve_one', 'count']) {
      expect(classifyDocument(q('tickets.Ticket', intent), null)).toEqual({ writes: false });
      expect(classifyDocument(q('chat.Message', intent, { schema: 'nosql' }), null)).toEqual({ writes: false });
    }
    // The server has no intent under a re-cased name: it is not known to be a read.
    expect(classifyDocument(q('tickets.Ticket', 'COUNT'), null)).toMatchObject({ writes: true });
  });

  it('names the write of a create, update, delete, and of any unknown intent or schema', () => {
    expect(classifyDocument(q('tickets.Ticket', 'delete', { uniqueObject: { id: 5 } }), null)).toEqual({ writes: true, what: 'this document deletes tickets.Ticket records' });
    expect(classifyDocument(q('tickets.Ticket', 'create'), null)).toMatchObject({ what: 'this document creates tickets.Ticket records' });
    expect(classifyDocument(q('chat.Message', 'update', { schema: 'nosql' }), null)).toMatchObject({ what: 'this document updates chat.Message documents' });
    expect(classifyDocument(q('tickets.Ticket', 'de_lete'), null)).toMatchObject({ writes: true });
    expect(classifyDocument(q('tickets.Ticket', 'purge'), null)).toMatchObject({ writes: true, what: expect.stringContaining('"purge"') });
    expect(classifyDocument(q('tickets.Ticket', 'retrieve', { schema: 'graph' }), null)).toMatchObject({ writes: true });
  });

  it('reads the last of duplicate keys, as the server does', () => {
    expect(classifyDocument('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "intent": "delete"}}', null)).toMatchObject({ writes: true });
  });

  it('takes a controller intent as read-only only when describe lists it', () => {
    const call = (intent: string) => q('docs.Folder', intent, { schema: 'controller' });
    expect(classifyDocument(call('listDocuments'), describeWith(['listDocuments']))).toEqual({ writes: false });
    expect(classifyDocument(call('list_documents'), describeWith(['listDocuments']))).toEqual({ writes: false });
    expect(classifyDocument(call('ListDocuments'), describeWith(['listDocuments']))).toMatchObject({ writes: true });
    expect(classifyDocument(call('addDocument'), describeWith(['listDocuments']))).toMatchObject({ writes: true, what: expect.stringContaining('does not declare read-only') });
    expect(classifyDocument(call('listDocuments'), describeWith())).toMatchObject({ writes: true });
    expect(classifyDocument(call('listDocuments'), null)).toMatchObject({ writes: true, what: expect.stringContaining("without the server's schema") });
  });

  it('writes when any subquery of a multi-query writes', () => {
    const multi = JSON.stringify({ __root_meta__: { atomic: true }, a: JSON.parse(q('tickets.Ticket', 'retrieve')), b: JSON.parse(q('tickets.Ticket', 'delete')) });
    expect(classifyDocument(multi, null)).toEqual({ writes: true, what: 'in this multi-query "b" deletes tickets.Ticket records' });
    const reads = JSON.stringify({ a: JSON.parse(q('tickets.Ticket', 'retrieve')), n: JSON.parse(q('tickets.Ticket', 'count')) });
    expect(classifyDocument(reads, null)).toEqual({ writes: false });
    const many = JSON.stringify(Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, JSON.parse(q('x.Y', 'create'))])));
    expect(classifyDocument(many, null)).toMatchObject({ what: expect.stringContaining('and 2 more write') });
  });

  it('never lets a {{variable}} hide a write', () => {
    expect(classifyTemplate('{"__meta__": {"namespace": "tickets.Ticket", "intent": "{{intent}}"}}', null)).toMatchObject({ writes: true });
    expect(classifyTemplate('{"__meta__": {"namespace": "tickets.Ticket", "intent": "delete", "uniqueObject": {"id": {{id}}}}}', null)).toMatchObject({ writes: true });
    expect(classifyTemplate('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "limit": {{n}}}}', null)).toEqual({ writes: false });
  });

  it('leaves a document that is not JSON, or a query without an intent, to the server', () => {
    expect(classifyDocument('{"__meta__": ', null)).toEqual({ writes: false });
    expect(classifyDocument('{"__meta__": {"namespace": "tickets.Ticket"}}', null)).toEqual({ writes: false });
  });
});

describe('read-only mode', () => {
  it('is on by default for production only', () => {
    expect(DEPLOYMENT_KINDS.filter(defaultReadOnly)).toEqual(['production']);
  });

  it('refuses a write on a read-only connection in one sentence, asking for the name on production', () => {
    const effect = classifyDocument(q('tickets.Ticket', 'delete'), null);
    expect(refuseWrite(effect, { name: 'Prod EU', deployment: 'production', readOnly: true })).toEqual({
      sentence: 'Not sent: this document deletes tickets.Ticket records, and “Prod EU” (production) is in read-only mode.',
      confirmName: 'Prod EU',
    });
    expect(refuseWrite(effect, { name: 'Stage', deployment: 'staging', readOnly: true })).toMatchObject({ confirmName: null });
    expect(refuseWrite(effect, { name: 'Prod EU', deployment: 'production', readOnly: false })).toBeNull();
    expect(refuseWrite({ writes: false }, { name: 'Prod EU', deployment: 'production', readOnly: true })).toBeNull();
    expect(refuseWrite(UPLOAD_EFFECT, { name: 'Prod EU', deployment: 'production', readOnly: true })?.sentence).toContain('this upload sends files');
  });

  it('refuses every write in Diff, whatever the connections', () => {
    expect(refuseInDiff(classifyDocument(q('tickets.Ticket', 'delete'), null))).toBe('Diff never writes: this document deletes tickets.Ticket records, so it is not sent to either side.');
    expect(refuseInDiff(classifyDocument(q('tickets.Ticket', 'retrieve'), null))).toBeNull();
  });
});

describe('redactSecrets', () => {
  it('replaces the values of password, token and secret keys, and nothing else', () => {
    const login = '{\n  "__meta__": {"namespace": "system.User", "intent": "login", "schema": "controller"},\n  "username": "admin",\n  "password": "hunter\\"2"\n}';
    expect(redactSecrets(login)).toBe('{\n  "__meta__": {"namespace": "system.User", "intent": "login", "schema": "controller"},\n  "username": "admin",\n  "password": "(redacted)"\n}');
    expect(redactSecrets('{"new_password":"a","apiKey":"k","refreshToken":"t","title":"password reset"}')).toBe('{"new_password":"(redacted)","apiKey":"(redacted)","refreshToken":"(redacted)","title":"password reset"}');
    expect(redactSecrets('{"filter": {"title__icontains": "token"}}')).toBe('{"filter": {"title__icontains": "token"}}');
  });
});
