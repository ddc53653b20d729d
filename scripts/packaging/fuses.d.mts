/** Types of fuses.mjs (a plain script electron-builder loads). */
export interface AfterPackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  /** electron-builder's Arch enum value. */
  arch: number;
  packager: { appInfo: { productFilename: string }; executableName: string };
}
export declare const FUSE_SETTINGS: Record<'RunAsNode' | 'EnableNodeOptionsEnvironmentVariable' | 'EnableNodeCliInspectArguments' | 'EnableCookieEncryption' | 'EnableEmbeddedAsarIntegrityValidation' | 'OnlyLoadAppFromAsar', boolean>;
export declare function fuseConfig(platform: string, arch: number): Record<string | number, unknown>;
export declare function packagedBinary(context: AfterPackContextLike): string;
