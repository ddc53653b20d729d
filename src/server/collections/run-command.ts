/**
 * `jql-console run DIR [PATHS…]` (docs/collections.md): runs a collection folder's requests against a
 * server (`--server URL`) or a fresh embedded one (`--embedded [WORKSPACE]`, the demo workspace when
 * none is named, on a temporary data directory removed afterwards), prints one line per request and a
 * summary, and writes JUnit/JSON reports. Exit code 0 when everything passed, 1 when an assertion or a
 * request failed, 2 for bad usage, a missing folder or an unknown environment (one sentence, no
 * stack trace).
 */
import type { CommandHelp } from '../cli-help.ts';
import { AnswerTooLargeError, readCappedText, REMOTE_LIMIT_OPTIONS, remoteLimitsFrom, type RemoteLimits } from '../remote/answer-limits.ts';
import { terminalProgress } from '../terminal-progress.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyKeepingNumbers } from '../../shared/big-number.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { describeTarget } from '../../shared/collections/assertions.ts';
import { tooDeep } from '../../shared/json-depth.ts';
import { escapeControl } from '../../shared/terminal-text.ts';
import { runRequests, type RequestResult, type SendRequest } from '../../shared/collections/run.ts';
import { findVariables, parseVariableValue } from '../../shared/variables.ts';
import { start, type RunningServer } from '../index.ts';
import { readFirstLine } from '../read-first-line.ts';
import { CollectionError, readCollection, selectRequests, writeSnapshot } from './folder.ts';
import { jsonReport, junitReport, snapshotFailure } from './reports.ts';
import { SecretValues } from './secret-values.ts';
import { withoutCredentials } from '../remote/url-text.ts';
import { boundedPatternTest } from './bounded-pattern.ts';
import { cleanUpOnStop, closeWithin } from './stop-signals.ts';

export const RUN_HELP: CommandHelp = {
  words: ['run'],
  usage: 'DIR [PATHS…] (--server URL | --embedded [WORKSPACE]) [options]',
  summary: "Runs a collection folder's requests (all, or those under PATHS) and checks their assertions; exit 0 all passed, 1 a check failed, 2 bad usage or unreadable input.",
  options: [
    { flag: '--server', value: 'URL', help: 'Runs against this server.' },
    { flag: '--embedded', value: '[WORKSPACE]', help: 'Runs against a fresh local server on a temporary data folder (the demo workspace when none is named).' },
    { flag: '--env', value: 'NAME', help: 'The environment of environments/NAME.json.', default: "the manifest's defaultEnvironment" },
    { flag: '--env-var', value: 'NAME=VALUE', help: 'Sets a variable (secrets too); repeatable. JQL_VAR_<NAME> sets a secret as well.' },
    { flag: '--user', value: 'NAME', help: 'Signs in as NAME first (with --password-stdin).' },
    { flag: '--password-stdin', help: "Reads --user's password from the first line of standard input." },
    { flag: '--tags', value: 'a,b', help: 'Runs only the requests with one of these tags.' },
    { flag: '--bail', help: 'Stops at the first failed request.' },
    { flag: '--update-snapshots', help: 'Approves every answer whose snapshot differs or is missing, writes those files and lists them.' },
    { flag: '--reporter-json', value: 'FILE', help: 'Writes a JSON report.' },
    { flag: '--reporter-junit', value: 'FILE', help: 'Writes a JUnit XML report.' },
    ...REMOTE_LIMIT_OPTIONS,
    { flag: '--quiet', help: 'No progress line, even on a terminal.' },
  ],
};

/** Bad usage, a missing folder, an unknown environment: exit code 2. */
export class RunUsageError extends Error {
  override readonly name = 'RunUsageError';
}

export interface RunArgs {
  dir: string;
  paths: string[];
  env?: string;
  envVars: Record<string, string>;
  server?: string;
  /** null: the embedded demo workspace. */
  embedded?: string | null;
  user?: string;
  passwordStdin: boolean;
  tags: string[];
  bail: boolean;
  reporterJson?: string;
  reporterJunit?: string;
  limits: RemoteLimits;
  quiet: boolean;
  /** Approve every snapshot that differs or is missing (docs/collections.md "Snapshots"). */
  updateSnapshots: boolean;
}

const VALUE_OPTIONS = new Set(['--env', '--env-var', '--server', '--user', '--tags', '--reporter-json', '--reporter-junit', '--timeout', '--max-answer-bytes']);
const FLAG_OPTIONS = new Set(['--password-stdin', '--bail', '--quiet', '--update-snapshots']);

export function parseRunArgs(argv: readonly string[]): RunArgs {
  const args: RunArgs = { dir: '', paths: [], envVars: {}, passwordStdin: false, tags: [], bail: false, limits: remoteLimitsFrom({}, (m) => new RunUsageError(m)), quiet: false, updateSnapshots: false };
  const limitValues: { timeout?: string; 'max-answer-bytes'?: string } = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--embedded') {
      // The workspace is optional: `--embedded` alone serves the demo workspace.
      const next = argv[i + 1];
      if (inline !== undefined) args.embedded = inline;
      else if (next !== undefined && !next.startsWith('--') && next.endsWith('.json')) args.embedded = argv[++i] as string;
      else args.embedded = null;
    } else if (FLAG_OPTIONS.has(flag)) {
      if (flag === '--bail') args.bail = true;
      else if (flag === '--quiet') args.quiet = true;
      else if (flag === '--update-snapshots') args.updateSnapshots = true;
      else args.passwordStdin = true;
    } else if (VALUE_OPTIONS.has(flag)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new RunUsageError(`${flag} needs a value`);
      if (flag === '--env') args.env = value;
      else if (flag === '--server') args.server = value;
      else if (flag === '--user') args.user = value;
      else if (flag === '--reporter-json') args.reporterJson = value;
      else if (flag === '--reporter-junit') args.reporterJunit = value;
      else if (flag === '--timeout') limitValues.timeout = value;
      else if (flag === '--max-answer-bytes') limitValues['max-answer-bytes'] = value;
      else if (flag === '--tags') args.tags = value.split(',').map((t) => t.trim()).filter(Boolean);
      else {
        const eq = value.indexOf('=');
        if (eq <= 0) throw new RunUsageError(`--env-var takes NAME=VALUE, not "${value}"`);
        args.envVars[value.slice(0, eq)] = value.slice(eq + 1);
      }
    } else if (arg.startsWith('--')) {
      throw new RunUsageError(`Unknown option ${flag}`);
    } else {
      positional.push(arg);
    }
  }
  args.limits = remoteLimitsFrom(limitValues, (m) => new RunUsageError(m));
  const [dir, ...paths] = positional;
  if (!dir) throw new RunUsageError('run needs the collection folder: jql-console run DIR');
  args.dir = dir;
  args.paths = paths;
  if (args.server !== undefined && args.embedded !== undefined) throw new RunUsageError('Give --server URL or --embedded, not both');
  if (args.server === undefined && args.embedded === undefined) throw new RunUsageError('Say where to run: --server URL, or --embedded for a fresh local server');
  if (args.server !== undefined && /^[a-z][\w+.-]*:\/\/[^/?#]*@/i.test(args.server)) {
    throw new RunUsageError(`--server ${withoutCredentials(args.server)}: the URL holds credentials; sign in with --user NAME --password-stdin instead`);
  }
  if (args.server !== undefined && !/^https?:\/\/[^/]+/.test(args.server)) throw new RunUsageError(`--server takes an http(s) URL, not "${withoutCredentials(args.server)}"`);
  if ((args.user === undefined) !== !args.passwordStdin) throw new RunUsageError('--user NAME goes with --password-stdin (the password is read from standard input)');
  return args;
}

export interface RunIo {
  out(line: string): void;
  /** The first line of standard input (the password). */
  readPassword(): Promise<string>;
  env: Record<string, string | undefined>;
  /** The terminal the progress line is drawn on (standard error when it is a TTY), or none. */
  progress?: NodeJS.WriteStream | null;
}

const defaultIo: RunIo = {
  // Answers, file names and errors reach the terminal with their control characters escaped.
  out: (line) => console.log(escapeControl(line)),
  readPassword: () => readFirstLine(),
  env: process.env,
  progress: process.stderr,
};

/** Runs the command; answers the exit code. */
export async function runCommand(argv: readonly string[], io: RunIo = defaultIo): Promise<number> {
  const args = parseRunArgs(argv);
  let folder;
  try {
    folder = readCollection(args.dir);
  } catch (error) {
    if (error instanceof CollectionError) throw new RunUsageError(error.message);
    throw error;
  }
  if (folder.problems.length > 0) throw new RunUsageError(`The collection has files that cannot be read: ${folder.problems.join('; ')}`);
  const envName = args.env ?? folder.manifest.defaultEnvironment ?? null;
  const environment = envName === null ? { variables: {}, secrets: [] } : folder.environments.get(envName);
  if (!environment) {
    const known = [...folder.environments.keys()];
    throw new RunUsageError(`No environment "${envName}" in ${args.dir}${known.length ? ` (it has ${known.join(', ')})` : ' (it has none)'}`);
  }
  let requests;
  try {
    requests = selectRequests(folder, args.paths);
  } catch (error) {
    if (error instanceof CollectionError) throw new RunUsageError(error.message);
    throw error;
  }
  if (args.tags.length > 0) requests = requests.filter((r) => r.file.tags.some((tag) => args.tags.includes(tag)));
  if (requests.length === 0) throw new RunUsageError('No request of the collection matches');

  // Secrets come from --env-var or JQL_VAR_<NAME>, never from a file.
  const variables: Record<string, JsonValue> = { ...environment.variables };
  for (const name of environment.secrets) {
    const value = args.envVars[name] ?? io.env[`JQL_VAR_${name}`];
    if (value !== undefined) variables[name] = parseVariableValue(value);
  }
  for (const [name, value] of Object.entries(args.envVars)) variables[name] = parseVariableValue(value);
  const missing = environment.secrets.filter((name) => !Object.hasOwn(variables, name) && requests.some((r) => usesVariable(r.file, name)));
  if (missing.length > 0) throw new RunUsageError(`Secret ${missing.map((m) => `"${m}"`).join(', ')} has no value: pass --env-var ${missing[0]}=… or set JQL_VAR_${missing[0]}`);

  const password = args.passwordStdin ? await io.readPassword() : null;
  if (args.passwordStdin && !password) throw new RunUsageError('--password-stdin read an empty line');

  let server: RunningServer | null = null;
  let dataDir: string | null = null;
  let unwatch = (): void => undefined;
  try {
    let base: string;
    if (args.server !== undefined) {
      base = args.server.replace(/\/+$/, '');
    } else {
      const made = mkdtempSync(join(tmpdir(), 'jql-run-'));
      dataDir = made;
      // Stopped by a signal: the server goes (or, if a request keeps it, its database is closed) and the folder with it.
      unwatch = cleanUpOnStop(async () => {
        const running = server;
        if (running && !(await closeWithin(running.close, STOP_GRACE_MS))) running.state.db.close();
        rmSync(made, { recursive: true, force: true });
      });
      server = await start({ ...(args.embedded ? { workspace: args.embedded } : {}), dataDir, port: 0, env: {} });
      base = server.url;
    }
    const send = (bearer: string | undefined) => sender(base, bearer, args.limits);
    const token = args.user !== undefined ? await login(send(undefined), args.user, password as string) : undefined;
    io.out(`Running ${requests.length} request${requests.length === 1 ? '' : 's'} of "${folder.manifest.name}"${envName ? ` (environment ${envName})` : ''} against ${base}`);
    const startedAt = new Date();
    const progress = terminalProgress(io.progress ?? null, args.quiet);
    const secrets = SecretValues.of(environment.secrets, requests, token !== undefined ? [[token, `{{token of --user ${args.user}}}`]] : []);
    let done = 0;
    const run = await runRequests(requests, {
      variables,
      send: send(token),
      patternTest: boundedPatternTest(),
      bail: args.bail,
      // Secret values never reach a snapshot file: each is written as its variable's name.
      redactions: [
        ...environment.secrets.flatMap((name) => (typeof variables[name] === 'string' ? [{ variable: name, value: variables[name] as string }] : [])),
        ...(password ? [{ variable: 'password', value: password }] : []),
        ...(token !== undefined ? [{ variable: 'token', value: token }] : []),
      ],
      updateSnapshots: args.updateSnapshots,
      onResult: (result, now) => {
        progress.done();
        secrets.update(now);
        printResult(io, secrets.hide({ ...result, body: undefined }));
        progress.show(`run: ${++done} of ${requests.length} requests done`);
      },
    });
    progress.done();
    secrets.update(run.variables);
    // What is printed and written holds no secret; the answers' bodies are not reported at all.
    const report = { ...run, variables: {}, results: run.results.map((result) => secrets.hide({ ...result, body: undefined })) };
    printSummary(io, report.results, report.skipped, report.totalMs);
    writeUpdatedSnapshots(io, folder.root, report.results);
    const input = { collection: folder.manifest.name, environment: envName, server: base, startedAt, requests, report };
    if (args.reporterJunit) writeFileSync(args.reporterJunit, junitReport(input));
    if (args.reporterJson) writeFileSync(args.reporterJson, jsonReport(input));
    return report.failed > 0 || report.skipped > 0 ? 1 : 0;
  } finally {
    unwatch();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** How long a stopped run waits for the embedded server's requests before it goes anyway. */
const STOP_GRACE_MS = 2000;

function usesVariable(file: { document: string; options: { bearer?: string } }, name: string): boolean {
  return [...findVariables(file.document), ...findVariables(JSON.stringify(file.options.bearer ?? ''))].some((use) => use.name === name);
}

function sender(base: string, token: string | undefined, limits: RemoteLimits): SendRequest {
  return async (request) => {
    const query = new URLSearchParams();
    if (request.options.queryInfoLevel) query.set('query_info_level', String(request.options.queryInfoLevel));
    if (request.options.envelope) query.set('envelope', request.options.envelope);
    const url = `${base}/jql${query.size > 0 ? `?${query}` : ''}`;
    const bearer = request.bearer ?? token;
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: stringifyKeepingNumbers(request.document),
        // A redirect would send the request (and its credential) somewhere the user did not name.
        redirect: 'manual',
        // One deadline for the whole request, the answer's last byte included.
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
      const text = await readCappedText(response, limits.maxAnswerBytes);
      const roundTripMs = performance.now() - started;
      if (response.status >= 300 && response.status < 400) {
        return { status: response.status, body: undefined, roundTripMs, error: `The server answered a redirect (${response.status}); it was not followed` };
      }
      const deep = tooDeep(text, `the answer of ${base}/jql`);
      if (deep !== null) return { status: response.status, body: undefined, roundTripMs, error: deep };
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, body, text, roundTripMs };
    } catch (error) {
      const roundTripMs = performance.now() - started;
      if (error instanceof AnswerTooLargeError) return { status: 0, body: undefined, roundTripMs, error: `${base}/jql: ${error.message}` };
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${limits.timeoutMs / 1000} s` : (cause ?? (error as Error).message);
      return { status: 0, body: undefined, roundTripMs, error: `The request could not be sent to ${base}: ${reason}` };
    }
  };
}

async function login(send: SendRequest, username: string, password: string): Promise<string> {
  const answer = await send({
    document: { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password },
    options: {},
  });
  const envelope = answer.body as { __payload__?: { token?: unknown }; __errors__?: Array<{ message?: string }> } | undefined;
  const token = envelope?.__payload__?.token;
  if (typeof token !== 'string') {
    throw new RunUsageError(`Signing in as ${username} failed: ${answer.error ?? envelope?.__errors__?.[0]?.message ?? `HTTP ${answer.status}`}`);
  }
  return token;
}

/** `--update-snapshots`: writes each snapshot the run approved, and lists them. */
function writeUpdatedSnapshots(io: RunIo, root: string, results: readonly RequestResult[]): void {
  const updated = results.filter((r) => r.snapshot?.state === 'updated');
  for (const result of updated) io.out(`Snapshot written: ${writeSnapshot(root, result.path, (result.snapshot as { actual: JsonValue }).actual)}`);
  if (updated.length > 0) io.out(`${updated.length} snapshot${updated.length === 1 ? '' : 's'} updated.`);
}

function printResult(io: RunIo, result: RequestResult): void {
  const passedCount = result.assertions.filter((a) => a.passed).length;
  const mark = result.passed ? '✓' : '✗';
  io.out(`${mark} ${result.path}  ${result.status || '-'}  ${Math.round(result.roundTripMs)} ms  ${passedCount}/${result.assertions.length} assertions`);
  if (result.error !== undefined) io.out(`    ${result.error}`);
  for (const assertion of result.assertions) {
    if (!assertion.passed) io.out(`    ✗ ${assertion.message ?? `${describeTarget(assertion.assertion)} failed`}`);
  }
  const failure = snapshotFailure(result);
  if (failure) io.out(failure.replace(/^/gm, '    '));
}

function printSummary(io: RunIo, results: RequestResult[], skipped: number, totalMs: number): void {
  const passed = results.filter((r) => r.passed).length;
  const assertions = results.flatMap((r) => r.assertions);
  const rows = [
    ['', 'total', 'passed', 'failed'],
    ['requests', String(results.length + skipped), String(passed), String(results.length - passed)],
    ['assertions', String(assertions.length), String(assertions.filter((a) => a.passed).length), String(assertions.filter((a) => !a.passed).length)],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  io.out('');
  for (const row of rows) io.out(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
  io.out(`${skipped > 0 ? `${skipped} not run (--bail). ` : ''}Finished in ${Math.round(totalMs)} ms.`);
}
