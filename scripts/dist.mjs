#!/usr/bin/env node
/**
 * `npm run dist`: builds JQL Console and packages it into installers for this platform with
 * electron-builder (electron-builder.json: AppImage and deb on Linux, dmg on macOS, NSIS on
 * Windows; the after-pack step flips the Electron fuses). Packaging wraps an Electron binary, taken
 * from the electron package (no download here); where there is none, it says so in one sentence.
 * Arguments go to electron-builder (`npm run dist -- --linux deb`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, findElectron } from './start.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The sentence `npm run dist` says when there is nothing to package. */
export function noBinarySentence(reason) {
  return `npm run dist packages an Electron binary and there is none here (${reason}): install Electron where its download works (npm install electron), then run npm run dist again.`;
}

export async function main(args, env = process.env) {
  const { binary, reason } = findElectron(env);
  if (!binary) {
    console.error(noBinarySentence(reason));
    return 1;
  }
  if (!(await build())) return 1;
  const electronDist = env.ELECTRON_OVERRIDE_DIST_PATH ?? join(root, 'node_modules', 'electron', 'dist');
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const cli = join(root, 'node_modules', 'electron-builder', 'cli.js');
  const child = spawn(process.execPath, [cli, '--config', 'electron-builder.json', `-c.electronDist=${electronDist}`, `-c.electronVersion=${electronVersion}`, ...args], { cwd: root, stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
