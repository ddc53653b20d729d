/**
 * The installers' configuration (issue 21.9): electron-builder targets, the after-pack step and the
 * fuses it flips, and what `npm run dist` says where there is no Electron binary. Packaging itself
 * needs an Electron binary, which this machine cannot download, so it is not run here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { describe, expect, it, vi } from 'vitest';
import { afterPack } from './after-pack.mjs';
import { FUSE_SETTINGS, fuseConfig, packagedBinary } from './fuses.mjs';

const root = join(import.meta.dirname, '..', '..');
const config = JSON.parse(readFileSync(join(root, 'electron-builder.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('electron-builder configuration', () => {
  it('builds AppImage and deb on Linux, dmg on macOS, NSIS on Windows, from the built app in an asar', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.asar).toBe(true);
    expect(config.files).toEqual(['out/**', 'package.json']);
    expect(manifest.main).toBe('out/main/index.js');
    expect(manifest.scripts.dist).toBe('node scripts/dist.mjs');
    expect(manifest.devDependencies).toHaveProperty('electron-builder');
    expect(manifest.devDependencies).toHaveProperty('@electron/fuses');
  });

  it('flips the fuses in its after-pack step', async () => {
    expect(config.afterPack).toBe('./scripts/packaging/after-pack.mjs');
    const hook = await import(join(root, config.afterPack));
    expect(hook.afterPack).toBe(afterPack);
  });
});

describe('fuses', () => {
  it('turns RunAsNode, NODE_OPTIONS, --inspect and file:// privileges off; cookie encryption, ASAR integrity and only-load-from-ASAR on', () => {
    expect(FUSE_SETTINGS).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableCookieEncryption: true,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      GrantFileProtocolExtraPrivileges: false,
    });
    expect(fuseConfig('linux', 1)).toEqual({
      version: FuseVersion.V1,
      resetAdHocDarwinSignature: false,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
    expect(fuseConfig('darwin', 3).resetAdHocDarwinSignature).toBe(true);
  });

  it('finds the packaged binary of each platform and flips its fuses', async () => {
    const context = (electronPlatformName: string) => ({ appOutDir: '/out', electronPlatformName, arch: 1, packager: { appInfo: { productFilename: 'JQL Console' }, executableName: 'jql-console' } });
    expect(packagedBinary(context('linux'))).toBe(join('/out', 'jql-console'));
    expect(packagedBinary(context('win32'))).toBe(join('/out', 'JQL Console.exe'));
    expect(packagedBinary(context('darwin'))).toBe(join('/out', 'JQL Console.app'));
    const flip = vi.fn(async () => undefined);
    await afterPack(context('linux'), flip);
    expect(flip).toHaveBeenCalledWith(join('/out', 'jql-console'), fuseConfig('linux', 1));
  });
});

describe('npm run dist', () => {
  it('says in one sentence that there is no Electron binary to package, and builds nothing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'jql-no-electron-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'scripts', 'dist.mjs')], { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty } });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^npm run dist packages an Electron binary and there is none here \([^)]+\): .*\.$/);
      expect(result.stdout).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
