/**
 * Uploads: a 1 GiB file through `PUT /jql` (docs/protocol.md "Multipart uploads") streamed from disk, while the server's
 * resident memory is sampled from /proc; against a plain streamed disk copy of the same file. The
 * server must stream it to its store: peak RSS may grow by less than 64 MiB.
 */
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { startJqlCommand, type Child } from './load.ts';
import { table, type Section } from './report.ts';
import type { BenchData } from './data.ts';

const MiB = 2 ** 20;

const UPLOAD_WORKSPACE = {
  name: 'uploads',
  limits: { maxFileBytes: 2 * 1024 * MiB, maxUploadBytes: 2 * 1024 * MiB + MiB },
  apps: {
    box: {
      models: {
        Blob: {
          fields: { title: { type: 'string', required: true }, file: { type: 'file', null: true } },
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
      },
    },
  },
};

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

async function writeSource(file: string, bytes: number): Promise<void> {
  const chunk = randomBytes(MiB);
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += MiB) {
    // Vary each chunk a little so the file is not one block repeated.
    chunk.writeUInt32LE(written / MiB, 0);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Streams a multipart PUT: the query part, then the file part read from disk. */
function put(url: string, file: string, size: number): Promise<{ status: number; body: any }> {
  const boundary = `----jqlbench${Date.now()}`;
  const query = JSON.stringify({ __meta__: { namespace: 'box.Blob', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'upload' } } }, title: 'big' });
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="query"\r\n\r\n${query}\r\n--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return new Promise((resolve, reject) => {
    const req = request(`${url}/jql`, {
      method: 'PUT',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(head) + size + Buffer.byteLength(tail) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file, { highWaterMark: MiB });
    source.pipe(req, { end: false });
    source.on('end', () => req.end(tail));
    source.on('error', reject);
  });
}

export async function uploadsBench(data: BenchData, options: { bytes: number }): Promise<Section> {
  const dir = join(data.dir, 'uploads');
  mkdirSync(dir, { recursive: true });
  const workspace = join(dir, 'jql.workspace.json');
  writeFileSync(workspace, JSON.stringify(UPLOAD_WORKSPACE));
  const source = join(dir, 'source.bin');
  await writeSource(source, options.bytes);
  let server: Child | null = null;
  try {
    server = await startJqlCommand(['serve', '--workspace', workspace, '--data', join(dir, 'data'), '--port', '0', '--production'], /listening on (http\S+)/);
    const pid = server.process.pid as number;
    // Warm the route up with a small file so the baseline includes the multipart machinery.
    const small = join(dir, 'small.bin');
    await writeSource(small, MiB);
    await put(server.url, small, MiB);
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
    const started = performance.now();
    const answer = await put(server.url, source, options.bytes);
    const uploadS = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    if (answer.status !== 200 || answer.body.__payload__?.file?.size !== options.bytes) throw new Error(`upload failed: ${answer.status} ${JSON.stringify(answer.body.__errors__)}`);

    const copyStarted = performance.now();
    await pipeline(createReadStream(source, { highWaterMark: MiB }), createWriteStream(join(dir, 'copy.bin')));
    const copyS = (performance.now() - copyStarted) / 1000;
    // SHA-256 of the same bytes, which the server must compute too: a bound below the copy.
    const hashStarted = performance.now();
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(source, { highWaterMark: MiB })) hash.update(chunk as Buffer);
    hash.digest();
    const hashS = (performance.now() - hashStarted) / 1000;
    const growth = (peak - baseline) / MiB;
    const mibps = (s: number) => (options.bytes / MiB / s).toFixed(0);
    const body = [
      `One ${(options.bytes / 2 ** 30).toFixed(2)} GiB file (random bytes) sent as a multipart \`PUT /jql\` create, streamed from disk by the client; the server's RSS sampled every 20 ms from /proc. The copy is a Node stream pipeline from the same file to a new one on the same disk (both read from the page cache).`,
      '',
      table(
        ['what', 'seconds', 'MiB/s'],
        [
          ['PUT /jql (receive, hash SHA-256, store, create the record)', uploadS.toFixed(2), mibps(uploadS)],
          ['plain disk copy (stream pipeline)', copyS.toFixed(2), mibps(copyS)],
          ['SHA-256 of the file alone (one core)', hashS.toFixed(2), mibps(hashS)],
        ],
      ),
      '',
      `Server RSS: ${(baseline / MiB).toFixed(0)} MiB before, ${(peak / MiB).toFixed(0)} MiB at peak: grew by ${growth.toFixed(1)} MiB (goal < 64 MiB).`,
    ].join('\n');
    return {
      title: 'Uploads: 1 GiB through PUT /jql',
      body,
      done: true,
      ratios: [
        { name: 'uploads: server peak RSS growth for 1 GiB', value: growth, unit: 'MiB', goal: '< 64 MiB', met: growth < 64 },
        { name: 'uploads: PUT /jql throughput / plain disk copy', value: copyS / uploadS, unit: '%' },
      ],
    };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
