/**
 * The command line of reproducing a live case offline:
 * - `jql-console workspace from-describe URL [--user NAME --password-stdin | --token-stdin]` prints a
 *   workspace file made from the server's describe (one line on stderr names what was not copied);
 * - `jql-console clone URL --query FILE [--depth 2] [--max-records 10000] [--with-files]
 *   [--redact FIELD,...] --out DIR [--user NAME --password-stdin | --token-stdin]` copies what the
 *   query reads into a data directory that `serve --workspace DIR/workspace.json --data DIR` runs.
 * Credentials come from standard input only, and no output names them.
 */
import { parseArgs } from 'node:util';
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';
import { CLONE_WORKSPACE_FILE, DEFAULT_CLONE_DEPTH, DEFAULT_MAX_RECORDS, type CloneProgress } from '../../shared/clone.ts';
import { parseRequestFile, REQUEST_SUFFIX } from '../../shared/collections/format.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { CommandHelp, OptionHelp } from '../cli-help.ts';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_S, positiveWholeNumber, RATE_LIMIT_OPTION, REMOTE_LIMIT_OPTIONS, remoteLimitsFrom } from '../remote/answer-limits.ts';
import { terminalProgress } from '../terminal-progress.ts';
import { FileReadError, readBoundedFile } from '../read-bounded-file.ts';
import { tooDeep } from '../../shared/json-depth.ts';
import { escapeControl } from '../../shared/terminal-text.ts';
import { cloneRemote, DEFAULT_MAX_CLONE_FILES_BYTES } from './clone-remote.ts';
import { readCredentials, signIn } from './credentials.ts';
import { RemoteServer } from './remote-server.ts';
import { workspaceFromDescribe } from './workspace-from-describe.ts';

const CREDENTIAL_HELP: OptionHelp[] = [
  { flag: '--user', value: 'NAME', help: 'Signs in as NAME; the password is read from the first line of standard input (with --password-stdin).' },
  { flag: '--password-stdin', help: "Reads --user's password from standard input." },
  { flag: '--token-stdin', help: 'Reads a bearer token from the first line of standard input instead.' },
];

export const FROM_DESCRIBE_HELP: CommandHelp = {
  words: ['workspace', 'from-describe'],
  usage: 'URL [--user NAME --password-stdin | --token-stdin] > workspace.json',
  summary: "Prints a workspace file made from the server's system.Schema.describe; one line on standard error names what was not copied.",
  options: [...CREDENTIAL_HELP, ...REMOTE_LIMIT_OPTIONS, RATE_LIMIT_OPTION],
};

export const CLONE_HELP: CommandHelp = {
  words: ['clone'],
  usage: 'URL --query FILE --out DIR [options]',
  summary: 'Copies what the query reads on the server (and the records it refers to) into a data directory that serve runs; exits 3 when the source paged wrongly and the copy is partial.',
  options: [
    { flag: '--query', value: 'FILE', help: "The query: a JSON document, or a collection's request file (*.jql.json)." },
    { flag: '--out', value: 'DIR', help: 'The new data directory (created, or an empty folder).' },
    { flag: '--depth', value: 'N', help: 'Levels of related records followed.', default: String(DEFAULT_CLONE_DEPTH) },
    { flag: '--max-records', value: 'N', help: 'Records copied at most, all models together.', default: String(DEFAULT_MAX_RECORDS) },
    { flag: '--with-files', help: "Copies the files' bytes too, each within the local server's maxFileBytes (100 MiB)." },
    { flag: '--max-files-bytes', value: 'BYTES', help: "All the files' bytes of one clone together; files past it keep their row without bytes.", default: `1 GiB (${DEFAULT_MAX_CLONE_FILES_BYTES})` },
    { flag: '--redact', value: 'FIELD,…', help: 'Fields (app.Model.field) whose values are replaced in the copy; repeatable.' },
    ...CREDENTIAL_HELP,
    ...REMOTE_LIMIT_OPTIONS,
    RATE_LIMIT_OPTION,
    { flag: '--quiet', help: 'No progress line, even on a terminal.' },
  ],
};

/** `clone`'s exit code when the copy was written but the source paged wrongly, so some model is partial. */
export const PARTIAL_COPY_EXIT = 3;

export class CloneCommandUsageError extends Error {
  override readonly name = 'CloneCommandUsageError';
}

const CREDENTIAL_OPTIONS = {
  user: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  'token-stdin': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'max-answer-bytes': { type: 'string' },
  'max-rate-limit-wait': { type: 'string' },
} as const;

type RemoteValues = { timeout?: string; 'max-answer-bytes'?: string; 'max-rate-limit-wait'?: string };

/** The source, with the bounds the options set (docs/workspace.md "Reading another server"). */
function remoteFor(url: string, values: RemoteValues, onRateLimited?: (ms: number) => void): RemoteServer {
  const fail = (message: string) => new CloneCommandUsageError(message);
  const limits = remoteLimitsFrom(values, fail);
  const wait = values['max-rate-limit-wait'] === undefined ? DEFAULT_MAX_RATE_LIMIT_WAIT_S : positiveWholeNumber(values['max-rate-limit-wait']);
  if (wait === null) throw fail(`--max-rate-limit-wait must be a whole number above 0, not "${values['max-rate-limit-wait']}"`);
  return new RemoteServer({ baseUrl: url, ...limits, maxTotalWaitMs: wait * 1000, ...(onRateLimited ? { onRateLimited } : {}) });
}

export interface CommandIo {
  out: (text: string) => void;
  err: (line: string) => void;
  stdin?: NodeJS.ReadableStream;
  /** The terminal progress is drawn on (standard error when it is a TTY), or none. */
  progress?: NodeJS.WriteStream | null;
}

// Each line on standard error is escaped apart, so only this command's own line breaks break lines.
const processIo: CommandIo = { out: (text) => process.stdout.write(text), err: (text) => console.error(text.split('\n').map(escapeControl).join('\n')), progress: process.stderr };

/** "records 120 of 400, level 1" style: what is done, of how many when the source said. */
function cloneProgressLine(p: CloneProgress): string {
  if (p.phase === 'files' && p.files) return `clone: files ${p.files.done} of ${p.files.total}`;
  const fetched = p.models.reduce((sum, m) => sum + m.fetched, 0);
  const total = p.models.reduce((sum, m) => sum + m.total, 0);
  return `clone: ${p.phase}, ${fetched}${total > 0 ? ` of ${total}` : ''} records, level ${p.level}, ${p.requests} requests`;
}

export async function workspaceCommand(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: CREDENTIAL_OPTIONS, allowPositionals: true, strict: true });
  const [url, ...extra] = positionals;
  if (!url || extra.length > 0) throw new CloneCommandUsageError(`Usage: jql-console workspace from-describe ${FROM_DESCRIBE_HELP.usage}`);
  const remote = remoteFor(url, values);
  await signIn(remote, await readCredentials(values, io.stdin));
  const result = workspaceFromDescribe(await remote.describe(), remote.baseUrl);
  io.out(`${JSON.stringify(result.workspace, null, 2)}\n`);
  io.err(
    result.controllers.length > 0
      ? `jql-console: controllers cannot be copied (${result.controllers.length}: ${escapeControl(result.controllers.join(', '))}); they are listed in "_notes".`
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
      'max-files-bytes': { type: 'string' },
      redact: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const [url, ...extra] = positionals;
  if (!url || extra.length > 0 || !values.query || !values.out) throw new CloneCommandUsageError(`Usage: jql-console clone ${CLONE_HELP.usage} (jql-console clone --help lists every option)`);
  const query = readQueryFile(values.query);
  const remote = remoteFor(url, values, (ms) => io.err(`jql-console: the source is rate limiting; waiting ${Math.ceil(ms / 1000)} s`));
  await signIn(remote, await readCredentials(values, io.stdin));
  const progress = terminalProgress(io.progress ?? null, values.quiet === true);
  let manifest;
  try {
    manifest = await cloneRemote({
      onProgress: (p) => progress.show(cloneProgressLine(p)),
      remote,
      query,
      depth: wholeNumber(values.depth as string, '--depth'),
      maxRecords: wholeNumber(values['max-records'] as string, '--max-records'),
      withFiles: values['with-files'] === true,
      ...(values['max-files-bytes'] !== undefined ? { maxFilesBytes: wholeNumber(values['max-files-bytes'], '--max-files-bytes') } : {}),
      redact: (values.redact as string[]).flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter(Boolean),
      out: values.out,
      onNotice: (message) => io.err(`jql-console: ${escapeControl(message)}`),
    });
  } finally {
    progress.done();
  }
  for (const entry of manifest.incomplete) {
    const of = entry.sourceSaid !== null ? ` of the ${entry.sourceSaid} it said match` : '';
    io.err(escapeControl(`jql-console: the copy of ${entry.model} is partial: ${entry.reason}, so reading ${entry.read} stopped after ${entry.copied} record(s)${of}; clone-manifest.json "incomplete" names it.`));
  }
  const leftOut = manifest.notCopied.filter((item) => item.what.startsWith('the bytes of file')).length;
  if (leftOut > 0) io.err(`jql-console: the bytes of ${leftOut} file(s) were not copied (over a size limit, or not served as described); clone-manifest.json names each and why.`);
  const records = Object.values(manifest.counts).reduce((sum, n) => sum + n, 0);
  io.err(
    `jql-console: copied ${records} record(s) of ${Object.keys(manifest.counts).length} model(s)/collection(s) in ${manifest.requests} request(s); ` +
      `${manifest.notCopied.length} item(s) not copied (see clone-manifest.json). Serve it with:\n` +
      `  npx jql-console serve --workspace ${values.out}/${CLONE_WORKSPACE_FILE} --data ${values.out}`,
  );
  // The copy is kept, but a script must not take it for the whole case (docs/workspace.md).
  return manifest.incomplete.length > 0 ? PARTIAL_COPY_EXIT : 0;
}

/** A query file larger than this is refused unread: 1 MiB holds any query a person writes. */
const MAX_QUERY_FILE_BYTES = 1024 * 1024;

/** A query document, or a collection's request file (`*.jql.json`) whose document is the query. */
function readQueryFile(file: string): JsonValue {
  let text: string;
  try {
    text = readBoundedFile(file, { maxBytes: MAX_QUERY_FILE_BYTES, label: `--query ${file}` });
  } catch (error) {
    if (error instanceof FileReadError) throw new CloneCommandUsageError(error.message);
    throw error;
  }
  const deep = tooDeep(text, `--query ${file}`);
  if (deep !== null) throw new CloneCommandUsageError(deep);
  if (file.endsWith(REQUEST_SUFFIX)) {
    const parsed = parseRequestFile(text, file);
    if (!parsed.ok) throw new CloneCommandUsageError(`--query ${file}: ${parsed.errors.join('; ')}`);
    text = parsed.value.document;
  }
  try {
    // A 64-bit id of its filter is sent as its digits, not rounded to another record.
    return parseJsonKeepingNumbers(text) as JsonValue;
  } catch (error) {
    throw new CloneCommandUsageError(`--query ${file} is not valid JSON (${(error as Error).message})`);
  }
}

function wholeNumber(text: string, option: string): number {
  if (!/^\d+$/.test(text.trim())) throw new CloneCommandUsageError(`${option} must be a whole number, not "${text}"`);
  return Number(text.trim());
}
