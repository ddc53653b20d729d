/**
 * The Electron fuses of an installed JQL Console (issue 21.9). The binary holds the keychain
 * identity that decrypts the connections' tokens, so nothing may run it as plain Node or attach a
 * debugger to it, cookies are encrypted at rest, and it loads only its own, integrity-checked
 * app.asar. The window loads from the app's own protocol (src/main/app-protocol), never file://, so
 * file:// gets no extra privileges (issue 30.10): a file page cannot fetch other files or run with
 * the app's rights.
 */
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';

/** Each fuse and its setting, as data (the unit test reads it). */
export const FUSE_SETTINGS = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableCookieEncryption: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
};

/** electron-builder's Arch enum value for arm64 (builder-util: ia32 0, x64 1, armv7l 2, arm64 3). */
const ARM64 = 3;

/** The configuration for @electron/fuses' flipFuses, for one packaged platform and architecture. */
export function fuseConfig(platform, arch) {
  const config = {
    version: FuseVersion.V1,
    // An unsigned arm64 macOS build must be re-signed ad hoc after its binary changed, or it will not start.
    resetAdHocDarwinSignature: platform === 'darwin' && arch === ARM64,
  };
  for (const [name, on] of Object.entries(FUSE_SETTINGS)) config[FuseV1Options[name]] = on;
  return config;
}

/** Where the packaged Electron binary is, from electron-builder's afterPack context. */
export function packagedBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return join(appOutDir, packager.executableName);
}
