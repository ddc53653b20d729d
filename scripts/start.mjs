#!/usr/bin/env node
/**
 * `npm start`: builds and opens the desktop app. Where Electron cannot start (no Electron binary,
 * which cannot be downloaded on every machine, or no display), it says so in one sentence and opens
 * browser mode instead: it builds the console and runs `jql-console serve --local-admin` on the demo
 * workspace with the collection folders under examples/ (or the options given:
 * `npm start -- --port 9000 --workspace ws.json --collections ../qa`), and prints the launch URL
 * the server made for this start (the only way in as the local admin).
 * `npm start -- --browser` asks for browser mode outright. Problems are reported in one line.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the Electron binary is, or why there is none (without triggering electron's downloader). */
export function findElectron(env = process.env) {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(dir)) return { binary: null, reason: 'the electron package is not installed' };
  if (!existsSync(pathFile)) return { binary: null, reason: 'no Electron binary installed' };
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(dir, 'dist', relative);
  return existsSync(binary) ? { binary, reason: null } : { binary: null, reason: 'no Electron binary installed' };
}

export function hasDisplay(env = process.env, platform = process.platform) {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Runs a command quietly; on failure prints its last lines (the useful part) and one sentence. */
export function runQuiet(command, args, what) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => {
      console.error(`Could not ${what}: ${err.message}`);
      resolve(false);
    });
    child.on('exit', (code) => {
      if (code === 0) return resolve(true);
      const tail = output.trim().split('\n').slice(-15).join('\n');
      console.error(`${tail}\nCould not ${what} (exit code ${code}).`);
      resolve(false);
    });
  });
}

const electronVite = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');

export async function build() {
  return runQuiet(process.execPath, [electronVite, 'build'], 'build JQL Console');
}

function forwardSignals(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

async function startElectron(binary) {
  if (!(await build())) return 1;
  const child = spawn(binary, ['.'], { cwd: root, stdio: 'inherit' });
  forwardSignals(child);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
}

/** `serve` as local admin, with the example collection folders unless the user named another folder. */
export function browserServeArgs(serveArgs) {
  const collections = serveArgs.some((a) => a === '--collections' || a.startsWith('--collections=')) ? [] : ['--collections', join(root, 'examples')];
  return ['serve', '--local-admin', ...collections, ...serveArgs];
}

/**
 * What `npm start` adds once the server printed its launch URL (`Open http://…/?key=…`): the URL is
 * the only way in as the local admin, and it is new at every start.
 */
export function launchHint(output) {
  const match = /^Open (http\S+\?key=\S+)$/m.exec(output);
  return match ? `Open ${match[1]} in your browser to use JQL Console as the local admin (a new link at every start; Ctrl+C stops it).` : null;
}

async function startBrowserMode(serveArgs) {
  if (!(await build())) return 1;
  const child = spawn(process.execPath, [join(root, 'bin', 'jql-console.mjs'), ...browserServeArgs(serveArgs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  forwardSignals(child);
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (buffered === null) return;
    buffered += chunk;
    const hint = launchHint(buffered);
    if (hint) {
      console.log(hint);
      buffered = null;
    }
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? 0 : (code ?? 0))));
}

async function main(argv) {
  const wantsBrowser = argv.includes('--browser');
  const serveArgs = argv.filter((a) => a !== '--browser');
  if (!wantsBrowser) {
    const { binary, reason } = findElectron();
    if (binary && hasDisplay()) return startElectron(binary);
    const why = binary ? 'there is no display' : reason;
    console.log(`Electron could not start here (${why}), so JQL Console is opening in browser mode.`);
  }
  return startBrowserMode(serveArgs);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`JQL Console could not start: ${err?.message ?? err}`);
      process.exit(1);
    },
  );
}
