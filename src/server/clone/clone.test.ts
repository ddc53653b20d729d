/**
 * The clone end to end over real HTTP: a source server on the casebook workspace (no other test
 * knows it), a query cloned from it, the copy started as a server, and the same query answered the
 * same on both: ids, values, nested records. The number of requests follows the depth, not the
 * number of records; the source's event log does not move; redaction is deterministic.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLONE_MANIFEST_FILE, CLONE_WORKSPACE_FILE, type CloneManifest } from '../../shared/clone.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { start, type RunningServer } from '../index.ts';
import { CASEBOOK_ADMIN, CASEBOOK_WORKSPACE, CASES_QUERY, seedCasebook } from '../testing/casebook.ts';
import { form, startFileServer, type FileServer } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { cloneCommand } from './clone-commands.ts';
import { cloneRemote } from './clone-remote.ts';
import { Redactor } from './redact.ts';
import { RemoteServer, type FetchLike } from './remote-server.ts';

let source: FileServer;
let token: string;
const workspaceDir = tempDir('jql-casebook-ws-');
const cleanup: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  source = await startFileServer({ workspace: writeWorkspace(CASEBOOK_WORKSPACE, workspaceDir), env: { JQL_ADMIN: `${CASEBOOK_ADMIN.username}:${CASEBOOK_ADMIN.password}` } });
  token = await source.login(CASEBOOK_ADMIN.username, CASEBOOK_ADMIN.password);
  await seedCasebook(source, token, 6);
}, 60_000);

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await source?.close();
  rmSync(workspaceDir, { recursive: true, force: true });
});

const lastSeq = () => (source.rows("SELECT seq FROM sqlite_sequence WHERE name = 'jql_events'")[0]?.seq as number | undefined) ?? 0;

/** A clone into a fresh folder (removed after the suite), counting the HTTP requests it makes. */
async function cloneOf(query: JsonValue, options: { depth?: number; redact?: string[]; withFiles?: boolean; maxRecords?: number; maxFilesBytes?: number; fetch?: FetchLike } = {}) {
  const out = join(tempDir('jql-clone-parent-'), 'copy');
  cleanup.push(() => rmSync(join(out, '..'), { recursive: true, force: true }));
  let requests = 0;
  const counting: FetchLike = (input, init) => {
    requests += 1;
    return (options.fetch ?? fetch)(input, init);
  };
  const remote = new RemoteServer({ baseUrl: source.url, token, fetch: counting });
  const manifest = await cloneRemote({
    remote,
    query,
    depth: options.depth ?? 2,
    maxRecords: options.maxRecords ?? 10_000,
    withFiles: options.withFiles ?? false,
    redact: options.redact ?? [],
    out,
    ...(options.maxFilesBytes !== undefined ? { maxFilesBytes: options.maxFilesBytes } : {}),
  });
  return { out, manifest, requests };
}

async function serveCopy(out: string): Promise<{ server: RunningServer; token: string }> {
  const server = await start({ workspace: join(out, CLONE_WORKSPACE_FILE), dataDir: out, port: 0, localAdmin: true, env: {} });
  cleanup.push(() => {
    // A keep-alive socket of the test's fetches would hold close() past the hook's timeout.
    server.app.server.closeAllConnections();
    return server.close();
  });
  return { server, token: server.localAdminToken as string };
}

async function post(url: string, body: unknown, bearer: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The answer without what measures the run (`queries`) rather than the data. */
function comparable(body: any): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => (key === 'queries' ? undefined : value));
}

describe('clone a live case', () => {
  it('answers the same query with the same ids, values and nested records, and leaves the source unchanged', async () => {
    const before = lastSeq();
    const { out, manifest } = await cloneOf(CASES_QUERY, { depth: 2 });
    expect(lastSeq()).toBe(before);

    const copy = await serveCopy(out);
    const remote = await post(source.url, CASES_QUERY, token);
    const local = await post(copy.server.url, CASES_QUERY, copy.token);
    expect(remote.status).toBe(200);
    expect(local.status).toBe(200);
    expect(remote.body.__payload__.cases.data.length).toBeGreaterThan(5);
    expect(remote.body.__payload__.cases.data.some((c: any) => c.comments.length > 0 && c.account.region.code)).toBe(true);
    expect(comparable(local.body)).toEqual(comparable(remote.body));

    // The manifest says what the copy is, and what it left empty.
    const written = JSON.parse(readFileSync(join(out, CLONE_MANIFEST_FILE), 'utf8')) as CloneManifest;
    expect(written).toEqual(manifest);
    expect(manifest.source.url).toBe(source.url);
    expect(manifest.query).toEqual(CASES_QUERY);
    expect(manifest.counts['crm.Case']).toBe(12);
    expect(manifest.counts['crm.Region']).toBe(2);
    expect(manifest.counts['crm.Activity']).toBe(6);
    expect(manifest.placeholders).toContainEqual({ field: 'crm.Account.pin', value: '"not-copied"', records: 6 });
    expect(manifest.emptied.map((e) => e.field)).toEqual(expect.arrayContaining(['crm.Account.internal_rank', 'crm.Account.pin', 'system.User.password']));
    expect(manifest.files).toEqual({ metadataOnly: 6, downloaded: 0, alreadyStored: 0 });
    expect(JSON.stringify(manifest)).not.toContain(token);
    expect(lastSeq()).toBe(before);
  });

  it('makes a number of requests that grows with the depth, not with the number of records', async () => {
    // From one region or from both: twice the records at every level below.
    const few = { __meta__: { namespace: 'crm.Region', intent: 'retrieve', filter: { code: 'EU' } } };
    const many = { __meta__: { namespace: 'crm.Region', intent: 'retrieve' } };
    const byDepth: number[] = [];
    for (const depth of [0, 1, 2]) {
      const small = await cloneOf(few, { depth });
      const large = await cloneOf(many, { depth });
      const records = (m: CloneManifest) => Object.values(m.counts).reduce((sum, n) => sum + n, 0);
      expect(records(large.manifest)).toBeGreaterThan(records(small.manifest));
      expect(large.requests).toBe(small.requests);
      // One request for the schema, then one per level: never one per record.
      expect(large.requests).toBe(1 + large.manifest.levels);
      expect(large.manifest.requests).toBe(large.requests);
      byDepth.push(large.requests);
    }
    expect(byDepth[0]).toBeLessThan(byDepth[1]!);
    expect(byDepth[1]).toBeLessThan(byDepth[2]!);
  });

  it('answers a file the copy holds only the metadata of with not_found and why; --with-files copies the bytes', async () => {
    const query = { __meta__: { namespace: 'crm.Case', intent: 'retrieve', filter: { attachment__isnull: false }, ordering: ['id'] }, attachment: null };
    const remote = await post(source.url, query, token);
    const file = remote.body.__payload__[0].attachment;
    const bytes = await (await fetch(`${new URL(source.url).origin}${file.url}`, { headers: { authorization: `Bearer ${token}` } })).text();

    const bare = await cloneOf(query, { depth: 0 });
    const bareCopy = await serveCopy(bare.out);
    expect((await post(bareCopy.server.url, query, bareCopy.token)).body.__payload__[0].attachment).toEqual(file);
    const missing = await fetch(`${new URL(bareCopy.server.url).origin}${file.url}`, { headers: { authorization: `Bearer ${bareCopy.token}` } });
    expect(missing.status).toBe(404);
    const answer = (await missing.json()) as { __errors__: Array<{ code: string; message: string }> };
    expect(answer.__errors__[0]).toMatchObject({ code: 'not_found' });
    expect(answer.__errors__[0]!.message).toMatch(/--with-files/);

    const full = await cloneOf(query, { depth: 0, withFiles: true });
    expect(full.manifest.files).toEqual({ metadataOnly: 0, downloaded: 6, alreadyStored: 0 });
    const fullCopy = await serveCopy(full.out);
    const served = await fetch(`${new URL(fullCopy.server.url).origin}${file.url}`, { headers: { authorization: `Bearer ${fullCopy.token}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(bytes);
  });

  it('--with-files: the local size limit decides, not the one the source claims, and one clone has a total cap (issue 32.7)', async () => {
    const query = { __meta__: { namespace: 'crm.Case', intent: 'retrieve', filter: { attachment__isnull: false }, ordering: ['id'] }, attachment: null };
    const huge = 150 * 1024 * 1024;
    // The source says its file limit is 1 TiB and that the first attachment is 150 MiB.
    const boasting: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      if (!input.endsWith('/jql')) return response;
      const body = (await response.json()) as any;
      if (body.__payload__?.limits) Object.assign(body.__payload__.limits, { maxFileBytes: 1024 ** 4, maxUploadBytes: 2 * 1024 ** 4 });
      // Every file value of the answer (batched subqueries included) claims 150 MiB.
      const claim = (value: any): void => {
        if (value === null || typeof value !== 'object') return;
        if (typeof value.sha256 === 'string' && typeof value.size === 'number') value.size = huge;
        else Object.values(value).forEach(claim);
      };
      claim(body.__payload__);
      return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json' } });
    };
    const big = await cloneOf(query, { depth: 0, withFiles: true, fetch: boasting });
    expect(big.manifest.files.downloaded).toBe(0);
    expect(big.manifest.notCopied).toContainEqual(expect.objectContaining({ reason: `${huge} bytes, over the limit of ${100 * 1024 * 1024}` }));

    const sizes = ((await post(source.url, query, token)).body.__payload__ as any[]).map((c) => c.attachment.size as number);
    const capped = await cloneOf(query, { depth: 0, withFiles: true, maxFilesBytes: (sizes[0] as number) + (sizes[1] as number) });
    expect(capped.manifest.files.downloaded).toBe(2);
    const over = capped.manifest.notCopied.filter((item) => / bytes allowed for all the files of one clone$/.test(item.reason));
    expect(over).toHaveLength(sizes.length - 2);
  });

  it('replaces redacted fields with deterministic fakes of the same shape, keeping equal values equal', async () => {
    const query = { __meta__: { namespace: 'crm.Account', intent: 'retrieve', ordering: ['id'] } };
    const redact = ['email', 'crm.Account.name', 'crm.Account.score', 'crm.Account.opened', 'crm.Account.profile', 'crm.Activity.who'];
    const first = await cloneOf(query, { depth: 1, redact });
    const second = await cloneOf(query, { depth: 1, redact });
    expect(first.manifest.redacted).toEqual(expect.arrayContaining(['crm.Account.email', 'system.User.email', 'crm.Account.name', 'crm.Activity.who']));
    const original = (await post(source.url, query, token)).body.__payload__ as any[];
    const a = await serveCopy(first.out);
    const b = await serveCopy(second.out);
    const one = (await post(a.server.url, query, a.token)).body.__payload__ as any[];
    const two = (await post(b.server.url, query, b.token)).body.__payload__ as any[];
    expect(one).toEqual(two);
    expect(one.map((r) => r.id)).toEqual(original.map((r) => r.id));
    for (const [i, fake] of one.entries()) {
      const real = original[i];
      expect(fake.name).not.toBe(real.name);
      expect(fake.name).toHaveLength(real.name.length);
      expect(fake.name).toMatch(/^[A-Z][a-z]+ \d{3}$/);
      expect(fake.email).not.toBe(real.email);
      expect(fake.email.indexOf('@')).toBe(real.email.indexOf('@'));
      expect(fake.opened === null || /^\d{4}-\d{2}-\d{2}$/.test(fake.opened)).toBe(true);
      if (real.score !== null) expect(fake.score).toBeGreaterThanOrEqual(0);
      expect(Object.keys(fake.profile)).toEqual(Object.keys(real.profile));
      // Not redacted: kept as is.
      expect(fake.tier).toBe(real.tier);
      expect(fake.region).toBe(real.region);
    }
    // Accounts 0 and 1 share an address at the source: their fakes are equal too.
    expect(original[0].email).toBe(original[1].email);
    expect(one[0].email).toBe(one[1].email);
    const redactor = new Redactor();
    expect(redactor.any('owner0@client0.example')).toBe(redactor.any('owner0@client0.example'));

    // Document keys too: the named key is faked leaf by leaf, the rest of the document is kept.
    const activities = { __meta__: { namespace: 'crm.Activity', schema: 'nosql', intent: 'retrieve', ordering: ['id'] } };
    const docs = await cloneOf(activities, { depth: 0, redact: ['crm.Activity.who'] });
    const docCopy = await serveCopy(docs.out);
    const realDocs = (await post(source.url, activities, token)).body.__payload__ as any[];
    const fakeDocs = (await post(docCopy.server.url, activities, docCopy.token)).body.__payload__ as any[];
    expect(fakeDocs.map((d) => [d.id, d.kind, d.case_id, d.created_at])).toEqual(realDocs.map((d) => [d.id, d.kind, d.case_id, d.created_at]));
    expect(fakeDocs[0].who.name).not.toBe(realDocs[0].who.name);
    expect(fakeDocs[0].who.email).toHaveLength(realDocs[0].who.email.length);
  });

  it('waits out a 429 for as long as Retry-After says, instead of hammering the source', async () => {
    const times: number[] = [];
    let refused = false;
    const limited: FetchLike = async (input, init) => {
      times.push(Date.now());
      if (times.length === 2 && !refused) {
        refused = true;
        return new Response(JSON.stringify({ __payload__: null, __errors__: [{ code: 'rate_limited', message: 'slow down' }] }), { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' } });
      }
      return fetch(input, init);
    };
    const { manifest } = await cloneOf({ __meta__: { namespace: 'crm.Region', intent: 'retrieve' } }, { depth: 0, fetch: limited });
    expect(manifest.counts['crm.Region']).toBe(2);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(950);
  });

  it('copies nothing and leaves no folder behind when the query is not a read', async () => {
    const out = join(tempDir('jql-clone-bad-'), 'copy');
    cleanup.push(() => rmSync(join(out, '..'), { recursive: true, force: true }));
    const remote = new RemoteServer({ baseUrl: source.url, token });
    const before = lastSeq();
    await expect(
      cloneRemote({ remote, query: { __meta__: { namespace: 'crm.Case', intent: 'delete', uniqueObject: { id: 1 } } }, depth: 1, maxRecords: 10, withFiles: false, redact: [], out }),
    ).rejects.toThrow(/never writes/);
    expect(existsSync(out)).toBe(false);
    expect(remote.requests).toBe(0);
    await expect(cloneRemote({ remote, query: CASES_QUERY, depth: 1, maxRecords: 10, withFiles: false, redact: ['crm.Case.account'], out })).rejects.toThrow(/keeps its id/);
    expect(existsSync(out)).toBe(false);
    // The query's own read refused by the source fails the clone, with the source's reason.
    await expect(cloneRemote({ remote: new RemoteServer({ baseUrl: source.url }), query: CASES_QUERY, depth: 1, maxRecords: 100, withFiles: false, redact: [], out })).rejects.toThrow(/refused crm\.Case \(subquery "cases"\): unauthenticated/);
    expect(existsSync(out)).toBe(false);
    // A misspelt name must not pass for a document key: the field it meant would go out unredacted.
    await expect(cloneRemote({ remote, query: CASES_QUERY, depth: 1, maxRecords: 100, withFiles: false, redact: ['emial'], out })).rejects.toThrow(/--redact emial: no model/);
    expect(existsSync(out)).toBe(false);
    expect(lastSeq()).toBe(before);
  });

  it('runs from the command line with the token on standard input, never in the output or the manifest', async () => {
    const dir = tempDir('jql-clone-cli-');
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    // A collection's request file works as the query file too.
    const queryFile = join(dir, 'cases.jql.json');
    writeFileSync(queryFile, JSON.stringify({ document: { __meta__: { namespace: 'crm.Comment', intent: 'retrieve' }, body: null } }));
    const out = join(dir, 'copy');
    const err: string[] = [];
    const io = { out: () => undefined, err: (line: string) => err.push(line), stdin: Readable.from([`${token}\n`]) };
    expect(await cloneCommand([source.url, '--query', queryFile, '--out', out, '--depth', '0', '--redact', 'body', '--token-stdin'], io)).toBe(0);
    expect(err.join('\n')).toMatch(/copied \d+ record\(s\).*serve --workspace .*workspace\.json --data /s);
    const manifest = readFileSync(join(out, CLONE_MANIFEST_FILE), 'utf8');
    expect(JSON.parse(manifest).redacted).toEqual(['crm.Comment.body']);
    for (const text of [manifest, err.join('\n'), readFileSync(join(out, CLONE_WORKSPACE_FILE), 'utf8')]) expect(text).not.toContain(token);
    await expect(cloneCommand([source.url, '--query', queryFile, '--out', out, '--token-stdin'], { ...io, stdin: Readable.from([`${token}\n`]) })).rejects.toThrow(/not empty/);
    await expect(cloneCommand([source.url, '--query', queryFile, '--out', join(dir, 'other'), '--depth', 'two'], io)).rejects.toThrow(/--depth must be a whole number/);
    expect(readdirSync(dir).sort()).toEqual(['cases.jql.json', 'copy']);
  });

  // Last: it adds records to the source.
  it('fetches the same bytes once however many records hold them', async () => {
    const account = (await post(source.url, { __meta__: { namespace: 'crm.Account', intent: 'retrieve', limit: 1 } }, token)).body.__payload__[0].id as number;
    for (const title of ['Twin A', 'Twin B']) {
      const meta = { namespace: 'crm.Case', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { attachment: 'file' } } };
      const res = await source.put(form({ __meta__: meta, title, account }, { file: { data: 'the same log twice', name: `${title}.log`, type: 'text/plain' } }), token);
      expect(res.status).toBe(200);
    }
    const query = { __meta__: { namespace: 'crm.Case', intent: 'retrieve', filter: { title__startswith: 'Twin' } } };
    const downloads: string[] = [];
    const watching: FetchLike = (input, init) => {
      if (input.includes('/jql/files/')) downloads.push(input);
      return fetch(input, init);
    };
    const { out, manifest } = await cloneOf(query, { depth: 0, withFiles: true, fetch: watching });
    expect(manifest.counts['crm.Case']).toBe(2);
    expect(manifest.files).toEqual({ metadataOnly: 0, downloaded: 1, alreadyStored: 0 });
    expect(downloads).toHaveLength(1);
    const copy = await serveCopy(out);
    const files = ((await post(copy.server.url, { ...query, attachment: null }, copy.token)).body.__payload__ as any[]).map((c) => c.attachment);
    for (const file of files) {
      const served = await fetch(`${new URL(copy.server.url).origin}${file.url}`, { headers: { authorization: `Bearer ${copy.token}` } });
      expect(await served.text()).toBe('the same log twice');
    }
  });
});
