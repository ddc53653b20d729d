/**
 * `jql-console`: `serve` starts the server, `user add` creates a user reading the password from
 * standard input, `run` runs a collection folder (collections/run-command.ts), `workspace
 * from-describe` and `clone` copy a live server's schema and records (clone/clone-commands.ts).
 * Mistakes print one plain sentence and exit 1; never a stack trace.
 */
import { homedir } from 'node:os';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureUser } from './auth/first-admin.ts';
import { CloneJobs, LocalAdminHostError, start, type ServeCopy } from './index.ts';
import { createState } from './state.ts';
import { readFirstLine } from './read-first-line.ts';
import { RUN_HELP, runCommand, RunUsageError } from './collections/run-command.ts';
import { IMPORT_HELP, importCommand } from './collections/import-command.ts';
import { untracked } from './db/sql-session.ts';
import { CLONE_HELP, cloneCommand, FROM_DESCRIBE_HELP, workspaceCommand } from './clone/clone-commands.ts';
import { escapeControl } from '../shared/terminal-text.ts';
import { CHECK_HELP, checkCommand } from './workspace/check-command.ts';
import { watchWorkspace } from './workspace/watch.ts';
import { restartReason } from './apply-workspace.ts';
import { WatchStatus } from './workspace/watch-status.ts';
import { asksForHelp, findCommand, formatHelp, formatOverview, type CommandHelp } from './cli-help.ts';

const SERVE_HELP: CommandHelp = {
  words: ['serve'],
  usage: '[options]',
  summary: 'Starts the JQL server on a workspace file and a data folder.',
  options: [
    { flag: '--workspace', value: 'FILE', help: 'The workspace file.', default: 'the demo workspace' },
    { flag: '--data', value: 'DIR', help: 'The data folder (database, files, keys).', default: defaultDataDir() },
    { flag: '--host', value: 'HOST', help: 'The address listened on.', default: '127.0.0.1' },
    { flag: '--port', value: 'PORT', help: 'The port; 0 picks a free one.', default: '8787' },
    { flag: '--base-path', value: 'PATH', help: 'Serves everything under this URL path, e.g. /api.', default: '/' },
    { flag: '--production', help: 'Production mode: no debug information in answers.' },
    { flag: '--cors', value: 'ORIGIN', help: 'Allows this browser origin; repeatable.' },
    { flag: '--local-admin', help: 'Prints a one-time link that signs the console in as the local admin.' },
    { flag: '--collections', value: 'DIR', help: 'Serves the collection folders under DIR to the local admin.' },
    { flag: '--request-timeout', value: 'SECONDS', help: 'A request (headers and body) must arrive within this, or its socket is closed.', default: '120' },
    { flag: '--watch', help: 'Reads the workspace file again on every save and applies what loses no stored data (docs/workspace.md).' },
    { flag: '--allow-destructive', help: 'With --watch: also applies a change that stops serving stored values (a removed field or model).' },
    { flag: '--max-connections', value: 'N', help: 'Open connections at once; more are refused until one closes.', default: '900' },
  ],
};

const USER_ADD_HELP: CommandHelp = {
  words: ['user', 'add'],
  usage: '--workspace FILE --data DIR --username NAME [--roles a,b]   (password on stdin)',
  summary: 'Creates a user; the password is read from the first line of standard input.',
  options: [
    { flag: '--workspace', value: 'FILE', help: 'The workspace file.', default: 'the demo workspace' },
    { flag: '--data', value: 'DIR', help: 'The data folder.', default: defaultDataDir() },
    { flag: '--username', value: 'NAME', help: "The new user's name." },
    { flag: '--roles', value: 'a,b', help: 'Roles given to the user.', default: 'none' },
  ],
};

/**
 * Every command with its help, in the order the overview lists them. A new command adds its
 * `CommandHelp` here (declared next to its code); `--help` and the test of every help page follow.
 */
export const COMMANDS: readonly CommandHelp[] = [SERVE_HELP, USER_ADD_HELP, RUN_HELP, IMPORT_HELP, FROM_DESCRIBE_HELP, CHECK_HELP, CLONE_HELP];

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

class UsageError extends Error {}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'jql-console');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'jql-console');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'jql-console');
}

export function parseServeArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: 'string' },
      data: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      'base-path': { type: 'string', default: '' },
      production: { type: 'boolean', default: false },
      cors: { type: 'string', multiple: true, default: [] },
      'local-admin': { type: 'boolean', default: false },
      collections: { type: 'string' },
      'request-timeout': { type: 'string' },
      'max-connections': { type: 'string' },
      watch: { type: 'boolean', default: false },
      'allow-destructive': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.watch && !values.workspace) throw new UsageError('--watch watches a workspace file: give it with --workspace FILE');
  if (values['allow-destructive'] && !values.watch) throw new UsageError('--allow-destructive goes with --watch');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${values.port}"`);
  const basePath = normalizeBasePath(values['base-path'] ?? '');
  const connections: { requestTimeoutMs?: number; maxConnections?: number } = {};
  if (values['request-timeout'] !== undefined) connections.requestTimeoutMs = positiveInteger('--request-timeout', values['request-timeout']) * 1000;
  if (values['max-connections'] !== undefined) connections.maxConnections = positiveInteger('--max-connections', values['max-connections']);
  return {
    watch: values.watch ?? false,
    allowDestructive: values['allow-destructive'] ?? false,
    connections,
    workspace: values.workspace,
    dataDir: values.data ?? defaultDataDir(),
    host: values.host ?? '127.0.0.1',
    port,
    basePath,
    production: values.production ?? false,
    cors: values.cors ?? [],
    localAdmin: values['local-admin'] ?? false,
    ...(values.collections ? { collections: collectionsFolder(values.collections, values['local-admin'] ?? false) } : {}),
  };
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number of at least 1, not "${text}"`);
  return value;
}

/** `--collections DIR`: an existing folder, served to the local admin only. */
function collectionsFolder(dir: string, localAdmin: boolean): string {
  if (!localAdmin) throw new UsageError('--collections serves folders to the local admin: use it with --local-admin');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--collections ${dir}: no such folder`);
  return resolve(dir);
}

export function normalizeBasePath(raw: string): string {
  if (raw === '' || raw === '/') return '';
  if (!/^\/?[A-Za-z0-9._~\-/]+$/.test(raw)) throw new UsageError(`--base-path must be a URL path such as /api, not "${raw}"`);
  return `/${raw.replace(/^\/+|\/+$/g, '')}`;
}

async function serve(args: string[]): Promise<void> {
  const { watch, allowDestructive, ...options } = parseServeArgs(args);
  // The browser-mode console's "Reproduce locally": copies go under the data directory.
  const clones = options.localAdmin ? new CloneJobs({ root: join(options.dataDir, 'clones'), serve: serveCopy, basePath: options.basePath ?? '' }) : undefined;
  // One status for every start: a restart's `/healthz` still tells the console about the last bad save.
  const watchStatus = watch ? new WatchStatus() : undefined;
  let server = await start({ ...options, logger: { level: 'warn' }, ...(clones ? { clones } : {}), ...(watchStatus ? { watchStatus } : {}) });
  console.log(`JQL server listening on ${server.url}`);
  // The only way in as the local admin: a key made for this start (docs/protocol.md "The local admin").
  if (server.launchUrl) console.log(`Open ${server.launchUrl}`);
  const watcher = watch
    ? watchWorkspace({
        file: resolve(options.workspace as string),
        dataDir: options.dataDir,
        allowDestructive,
        current: server.state.ws,
        ...(watchStatus ? { status: watchStatus } : {}),
        apply: async (ws) => {
          const reason = restartReason(server.state.ws, ws);
          if (reason === null) {
            await server.applyWorkspace(ws);
            return;
          }
          // What cannot be applied in place: same port, same data folder, clients reconnect to the
          // address they know; a new start that fails starts the last good workspace again.
          console.log(`Restarting the server: ${reason}.`);
          const running = server.state.ws;
          const restart = async (on: typeof ws) => {
            server = await start({ ...options, port: server.port, resolvedWorkspace: on, logger: { level: 'warn' }, ...(clones ? { clones } : {}), watchStatus });
            if (server.launchUrl) console.log(`Open ${server.launchUrl}`);
          };
          await server.close();
          try {
            await restart(ws);
          } catch (error) {
            await restart(running);
            throw error;
          }
        },
        out: (line) => console.log(line),
        err: (line) => console.error(line),
      })
    : null;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    watcher?.close();
    // Finish in-flight requests, then close the database (WAL is checkpointed on close).
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * A server on a copy made by "Reproduce locally": loopback only, a free port, its own local admin, no
 * console page and no CORS: the console's page reaches it through this server (clone/copy-proxy.ts).
 */
const serveCopy: ServeCopy = (copy) => start({ ...copy, host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false, env: {}, logger: { level: 'warn' } });

async function userAdd(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: 'string' },
      data: { type: 'string' },
      username: { type: 'string' },
      roles: { type: 'string', default: '' },
    },
    strict: true,
  });
  if (!values.username) throw new UsageError('user add needs --username NAME');
  const password = await readFirstLine();
  if (!password) throw new UsageError('user add reads the password from the first line of standard input, and it was empty');
  const { state } = await createState({ workspace: values.workspace, dataDir: values.data ?? defaultDataDir() });
  try {
    const roles = (values.roles ?? '').split(',').map((r) => r.trim()).filter(Boolean);
    const existing = state.db.read((statements) => untracked(statements).get('SELECT 1 AS found FROM "system.User" WHERE "username" = ?', [values.username as string]));
    if (existing) throw new UsageError(`A user "${values.username}" already exists`);
    await ensureUser(state.db, values.username, password, roles);
    console.log(`Created user ${values.username}${roles.length ? ` with roles ${roles.join(', ')}` : ''}`);
  } finally {
    state.db.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  try {
    if (command === '--version' || command === '-v' || command === 'version') {
      console.log(version());
      return 0;
    }
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      console.log(formatOverview(COMMANDS, version()));
      return 0;
    }
    if (asksForHelp(argv)) {
      const asked = findCommand(COMMANDS, argv);
      if (!asked) throw new UsageError(`Unknown command "${argv.filter((a) => a !== '--help' && a !== '-h').join(' ')}"`);
      console.log(formatHelp(asked));
      return 0;
    }
    if (command === 'run') return await runCommand(argv.slice(1));
    if (command === 'collection' && sub === 'import') return importCommand(rest);
    if (command === 'workspace' && sub === 'from-describe') return await workspaceCommand(rest);
    if (command === 'workspace' && sub === 'check') return checkCommand(rest);
    if (command === 'clone') return await cloneCommand(argv.slice(1));
    if (command === 'serve') await serve(argv.slice(1));
    else if (command === 'user' && sub === 'add') await userAdd(rest);
    else throw new UsageError(`Unknown command "${argv.join(' ')}"`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // One sentence on one line, whatever a source or a file name put into it.
    console.error(`jql-console: ${escapeControl(message)}`);
    if (error instanceof LocalAdminHostError) return 2;
    if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') console.error('jql-console --help lists the commands; jql-console COMMAND --help its options.');
    // `run` tells a failed check (1) from bad usage (2), as CI runners expect.
    return error instanceof RunUsageError ? 2 : 1;
  }
}
