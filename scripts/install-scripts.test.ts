/**
 * npm's install-script policy (`allowScripts` in package.json): exactly the dependencies whose install
 * scripts the project needs are allowed, those it does not need are denied, and npm's strictest
 * setting installs with no advisory. The project's Node 22 comes from the `node` package's
 * preinstall; better-sqlite3 loads a prebuilt binary, so its implicit `node-gyp rebuild` is denied;
 * electron-winstaller (pulled in by electron-builder) picks a 7-Zip binary for Squirrel.Windows,
 * a target the project does not build (its Windows installer is NSIS), so that step is denied too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

interface Installed {
  name: string;
  scripts: string[];
}

/** Every installed package that has a preinstall, install or postinstall step (npm's implicit node-gyp one included). */
function packagesWithInstallScripts(dir = join(root, 'node_modules'), found = new Map<string, Installed>()): Map<string, Installed> {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      packagesWithInstallScripts(path, found);
      continue;
    }
    const pkgFile = join(path, 'package.json');
    if (existsSync(pkgFile)) {
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: string; scripts?: Record<string, string> };
      const scripts = ['preinstall', 'install', 'postinstall'].filter((name) => pkg.scripts?.[name]);
      if (scripts.length === 0 && existsSync(join(path, 'binding.gyp'))) scripts.push('install (node-gyp rebuild)');
      if (scripts.length > 0 && pkg.name) found.set(pkg.name, { name: pkg.name, scripts });
    }
    packagesWithInstallScripts(join(path, 'node_modules'), found);
  }
  return found;
}

describe('install scripts', () => {
  it('allowScripts covers exactly the installed packages that have install scripts', () => {
    const installed = [...packagesWithInstallScripts().keys()].sort();
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual(installed);
  });

  it("allows node's preinstall (the project's Node 22) and denies better-sqlite3's rebuild (its prebuilt binary loads)", () => {
    expect(manifest.allowScripts).toEqual({ node: true, 'better-sqlite3': false, 'electron-winstaller': false });
    expect(existsSync(join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node'))).toBe(true);
    expect(existsSync(join(root, 'node_modules', 'better-sqlite3', 'build'))).toBe(false);
  });

  it('installs under npm --strict-allow-scripts with no install-script advisory', () => {
    const npm = process.env.npm_execpath;
    const command = npm && npm.endsWith('.js') ? [process.execPath, npm] : ['npm'];
    const result = spawnSync(command[0] as string, [...command.slice(1), 'install', '--strict-allow-scripts', '--dry-run', '--no-audit', '--no-fund'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      shell: process.platform === 'win32',
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(/allowScripts|install-scripts|not covered/);
    expect(result.status).toBe(0);
  });
});
