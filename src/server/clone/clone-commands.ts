/**
 * The command line of reproducing a live case offline:
 * - `jql-console workspace from-describe URL [--user NAME --password-stdin | --token-stdin]` prints a
 *   workspace file made from the server's describe (one line on stderr names what was not copied);
 * - `jql-console clone URL --query FILE [--depth 2] [--max-records 10000] [--with-files]
 *   [--redact FIELD,...] --out DIR [--user NAME --password-stdin | --token-stdin]` copies what the
 *   query reads into a data directory that `serve --workspace DIR/workspace.json --data DIR` runs.
 * Credentials come from standard input only, and no output names them.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLONE_WORKSPACE_FILE, DEFAULT_CLONE_DEPTH, DEFAULT_MAX_RECORDS } from '../../shared/clone.ts';
import { parseRequestFile, REQUEST_SUFFIX } from '../../shared/collections/format.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { cloneRemote } from './clone-remote.ts';
import { readCredentials, signIn } from './credentials.ts';
import { RemoteServer } from './remote-server.ts';
import { workspaceFromDescribe } from './workspace-from-describe.ts';

export const CLONE_USAGE = `  jql-console workspace from-describe URL [--user NAME --password-stdin | --token-stdin] > workspace.json
  jql-console clone URL --query FILE --out DIR [--depth ${DEFAULT_CLONE_DEPTH}] [--max-records ${DEFAULT_MAX_RECORDS}] [--with-files]
                    [--redact FIELD,...] [--user NAME --password-stdin | --token-stdin]`;

export class CloneCommandUsageError extends Error {
  override readonly name = 'CloneCommandUsageError';
}

const CREDENTIAL_OPTIONS = {
  user: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  'token-stdin': { type: 'boolean', default: false },
} as const;

export interface CommandIo {
  out: (text: string) => void;
  err: (line: string) => void;
  stdin?: NodeJS.ReadableStream;
}

const processIo: CommandIo = { out: (text) => process.stdout.write(text), err: (line) => console.error(line) };

export async function workspaceCommand(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: CREDENTIAL_OPTIONS, allowPositionals: true, strict: true });
  const [url, ...extra] = positionals;
  if (!url || extra.length > 0) throw new CloneCommandUsageError('Usage: jql-console workspace from-describe URL [--user NAME --password-stdin | --token-stdin]');
  const remote = new RemoteServer({ baseUrl: url });
  await signIn(remote, await readCredentials(values, io.stdin));
  const result = workspaceFromDescribe(await remote.describe(), remote.baseUrl);
  io.out(`${JSON.stringify(result.workspace, null, 2)}\n`);
  io.err(
    result.controllers.length > 0
      ? `jql-console: controllers cannot be copied (${result.controllers.length}: ${result.controllers.join(', ')}); they are listed in "_notes".`
      : 'jql-console: the workspace was copied; "_notes" says where it came from.',
  );
  return 0;
}

export async function cloneCommand(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      ...CREDENTIAL_OPTIONS,
      query: { type: 'string' },
      depth: { type: 'string', default: String(DEFAULT_CLONE_DEPTH) },
      'max-records': { type: 'string', default: String(DEFAULT_MAX_RECORDS) },
      'with-files': { type: 'boolean', default: false },
      redact: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [url, ...extra] = positionals;
  if (!url || extra.length > 0 || !values.query || !values.out) throw new CloneCommandUsageError(`Usage:\n${CLONE_USAGE}`);
  const query = readQueryFile(values.query);
  const remote = new RemoteServer({ baseUrl: url, onRateLimited: (ms) => io.err(`jql-console: the source is rate limiting; waiting ${Math.ceil(ms / 1000)} s`) });
  await signIn(remote, await readCredentials(values, io.stdin));
  const manifest = await cloneRemote({
    remote,
    query,
    depth: wholeNumber(values.depth as string, '--depth'),
    maxRecords: wholeNumber(values['max-records'] as string, '--max-records'),
    withFiles: values['with-files'] === true,
    redact: (values.redact as string[]).flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter(Boolean),
    out: values.out,
    onNotice: (message) => io.err(`jql-console: ${message}`),
  });
  const records = Object.values(manifest.counts).reduce((sum, n) => sum + n, 0);
  io.err(
    `jql-console: copied ${records} record(s) of ${Object.keys(manifest.counts).length} model(s)/collection(s) in ${manifest.requests} request(s); ` +
      `${manifest.notCopied.length} item(s) not copied (see clone-manifest.json). Serve it with:\n` +
      `  npx jql-console serve --workspace ${values.out}/${CLONE_WORKSPACE_FILE} --data ${values.out}`,
  );
  return 0;
}

/** A query document, or a collection's request file (`*.jql.json`) whose document is the query. */
function readQueryFile(file: string): JsonValue {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CloneCommandUsageError(`--query ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  if (file.endsWith(REQUEST_SUFFIX)) {
    const parsed = parseRequestFile(text, file);
    if (!parsed.ok) throw new CloneCommandUsageError(`--query ${file}: ${parsed.errors.join('; ')}`);
    text = parsed.value.document;
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CloneCommandUsageError(`--query ${file} is not valid JSON (${(error as Error).message})`);
  }
}

function wholeNumber(text: string, option: string): number {
  if (!/^\d+$/.test(text.trim())) throw new CloneCommandUsageError(`${option} must be a whole number, not "${text}"`);
  return Number(text.trim());
}
