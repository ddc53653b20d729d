/**
 * `jql-console run DIR [PATHS…]` (docs/collections.md): runs a collection folder's requests against a
 * server (`--server URL`) or a fresh embedded one (`--embedded [WORKSPACE]`, the demo workspace when
 * none is named, on a temporary data directory removed afterwards), prints one line per request and a
 * summary, and writes JUnit/JSON reports. Exit code 0 when everything passed, 1 when an assertion or a
 * request failed, 2 for bad usage, a missing folder or an unknown environment (one sentence, no
 * stack trace).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonValue } from '../../shared/protocol.ts';
import { describeTarget } from '../../shared/collections/assertions.ts';
import { runRequests, type RequestResult, type SendRequest } from '../../shared/collections/run.ts';
import { findVariables, parseVariableValue } from '../../shared/variables.ts';
import { start, type RunningServer } from '../index.ts';
import { readFirstLine } from '../read-first-line.ts';
import { CollectionError, readCollection, selectRequests, writeSnapshot } from './folder.ts';
import { jsonReport, junitReport, snapshotFailure } from './reports.ts';
import { cleanUpOnStop, closeWithin } from './stop-signals.ts';

export const RUN_USAGE = `  jql-console run DIR [PATHS…] [--env NAME] [--env-var K=V]… [--server URL | --embedded [WORKSPACE]]
                  [--user NAME --password-stdin] [--tags a,b] [--bail]
                  [--reporter-json FILE] [--reporter-junit FILE] [--update-snapshots]`;

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
  /** Approve every snapshot that differs or is missing (docs/collections.md "Snapshots"). */
  updateSnapshots: boolean;
}

const VALUE_OPTIONS = new Set(['--env', '--env-var', '--server', '--user', '--tags', '--reporter-json', '--reporter-junit']);
const FLAG_OPTIONS = new Set(['--password-stdin', '--bail', '--update-snapshots']);

export function parseRunArgs(argv: readonly string[]): RunArgs {
  const args: RunArgs = { dir: '', paths: [], envVars: {}, passwordStdin: false, tags: [], bail: false, updateSnapshots: false };
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
  const [dir, ...paths] = positional;
  if (!dir) throw new RunUsageError('run needs the collection folder: jql-console run DIR');
  args.dir = dir;
  args.paths = paths;
  if (args.server !== undefined && args.embedded !== undefined) throw new RunUsageError('Give --server URL or --embedded, not both');
  if (args.server === undefined && args.embedded === undefined) throw new RunUsageError('Say where to run: --server URL, or --embedded for a fresh local server');
  if (args.server !== undefined && !/^https?:\/\/[^/]+/.test(args.server)) throw new RunUsageError(`--server takes an http(s) URL, not "${args.server}"`);
  if ((args.user === undefined) !== !args.passwordStdin) throw new RunUsageError('--user NAME goes with --password-stdin (the password is read from standard input)');
  return args;
}

export interface RunIo {
  out(line: string): void;
  /** The first line of standard input (the password). */
  readPassword(): Promise<string>;
  env: Record<string, string | undefined>;
}

const defaultIo: RunIo = {
  out: (line) => console.log(line),
  readPassword: () => readFirstLine(),
  env: process.env,
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
    const token = args.user !== undefined ? await login(base, args.user, password as string) : undefined;
    io.out(`Running ${requests.length} request${requests.length === 1 ? '' : 's'} of "${folder.manifest.name}"${envName ? ` (environment ${envName})` : ''} against ${base}`);
    const startedAt = new Date();
    // Secret values never reach a snapshot: each is written as its variable's name.
    const redactions = environment.secrets.flatMap((name) => (typeof variables[name] === 'string' ? [{ variable: name, value: variables[name] as string }] : []));
    if (password) redactions.push({ variable: 'password', value: password });
    const report = await runRequests(requests, {
      variables,
      send: sender(base, token),
      bail: args.bail,
      redactions,
      updateSnapshots: args.updateSnapshots,
      onResult: (result) => printResult(io, result),
    });
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

const TIMEOUT_MS = 60_000;

function sender(base: string, token: string | undefined): SendRequest {
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
        body: JSON.stringify(request.document),
        // A redirect would send the request (and its credential) somewhere the user did not name.
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await response.text();
      const roundTripMs = performance.now() - started;
      if (response.status >= 300 && response.status < 400) {
        return { status: response.status, body: undefined, roundTripMs, error: `The server answered a redirect (${response.status}); it was not followed` };
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, body, roundTripMs };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : (cause ?? (error as Error).message);
      return { status: 0, body: undefined, roundTripMs: performance.now() - started, error: `The request could not be sent to ${base}: ${reason}` };
    }
  };
}

async function login(base: string, username: string, password: string): Promise<string> {
  const answer = await sender(base, undefined)({
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
