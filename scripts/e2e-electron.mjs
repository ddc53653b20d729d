#!/usr/bin/env node
/**
 * `npm run e2e:electron`: the Playwright `_electron` specs (e2e/electron) against the built desktop
 * app. Where there is no Electron binary (or no display) it says it cannot run them here, in one
 * line, and exits 0: the same renderer is covered in Chromium by `npm run test:e2e`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build, findElectron, hasDisplay } from './start.mjs';

const root = join(import.meta.dirname, '..');
const { binary, reason } = findElectron();
if (!binary || !hasDisplay()) {
  console.log(`The Electron e2e specs cannot run here (${binary ? 'there is no display' : reason}); skipped.`);
  process.exit(0);
}
if (!(await build())) process.exit(1);
const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const child = spawn(process.execPath, [cli, 'test', '-c', 'e2e/electron/playwright.config.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
