/**
 * Development build or not (issue 21.8, 21.9). Only `electron-vite dev` (or a build with `--mode
 * development`) defines __JQL_DEV_BUILD__ as true (electron.vite.config.ts); a production build, an
 * installer, an unpackaged `electron .` of a production build and the tests all see false. Nothing
 * at run time (an environment variable, `app.isPackaged`) can turn development features on.
 */
declare const __JQL_DEV_BUILD__: boolean | undefined;

export const IS_DEV_BUILD: boolean = typeof __JQL_DEV_BUILD__ === 'boolean' ? __JQL_DEV_BUILD__ : false;

/** The Vite dev server the window loads instead of app://: only in a development build. */
export function devServerUrl(env: Record<string, string | undefined>, isDevBuild: boolean): string | undefined {
  return isDevBuild ? env.ELECTRON_RENDERER_URL : undefined;
}
