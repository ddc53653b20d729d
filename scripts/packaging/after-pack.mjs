/**
 * electron-builder's afterPack hook (electron-builder.json): flips the fuses of the packaged binary
 * before it is signed and wrapped into an installer.
 */
import { flipFuses } from '@electron/fuses';
import { fuseConfig, packagedBinary } from './fuses.mjs';

export async function afterPack(context, flip = flipFuses) {
  const binary = packagedBinary(context);
  await flip(binary, fuseConfig(context.electronPlatformName, context.arch));
  console.log(`Electron fuses set on ${binary}.`);
}

export default afterPack;
