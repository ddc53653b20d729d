/**
 * Finds the Chromium that every Playwright entry point launches (the e2e config, the console
 * benchmark, the screenshots), so that `npm install && npm test` needs no browser installed by hand.
 * Order: `JQL_CHROMIUM`; a browser Playwright installed (`npx playwright install chromium`); a system
 * Chromium or Chrome on the usual paths of Linux, macOS and Windows; the @sparticuz/chromium package
 * (a headless Chromium shipped inside an npm package, Linux x64/arm64).
 *
 * Every browser gets the same curated flags. @sparticuz/chromium's own `args` are never used: they
 * turn off web security, mixed-content blocking and site isolation, which would let CORS and
 * isolation bugs pass the e2e suite unseen.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type ChromiumSource = 'JQL_CHROMIUM' | 'playwright' | 'system' | '@sparticuz/chromium';

export interface ChromiumChoice {
  executablePath: string;
  source: ChromiumSource;
  /** The curated flags plus only what this binary needs to start. */
  args: string[];
}

/**
 * Flags for every browser: no sandbox (CI runs as root), no GPU, and none of the background network
 * calls that hang on a machine without internet.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What the packaged headless Chromium needs to start here, and nothing more. Not `--single-process`:
 * in that mode the browser dies when a context closes, which every spec does. Not `--no-zygote`
 * either (the package's own choice, for a single process): without the zygote every new page
 * started a renderer from scratch instead of forking a ready one, and each spec opens one or more.
 * A new context and page took 0.77 s instead of 1.19 s (mean of 12 alternating rounds, on a loaded
 * 2-core machine).
 */
export const SPARTICUZ_EXTRA_ARGS: readonly string[] = ['--use-gl=angle', '--use-angle=swiftshader'];

/** Flags that would hide the bugs the e2e suite exists to find; no launch may carry them. */
export const FORBIDDEN_ARGS: readonly string[] = [
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--ignore-certificate-errors',
  '--user-data-dir',
];

export const NO_CHROMIUM_MESSAGE =
  'No Chromium was found for the browser tests: set JQL_CHROMIUM to a Chromium or Chrome binary, run `npx playwright install chromium`, ' +
  'install Chromium or Google Chrome on the system, or install the @sparticuz/chromium package (Linux x64/arm64) with `npm install`.';

/** What the resolver may look at; tests replace it. */
export interface Probe {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  exists(path: string): boolean;
  /** Where Playwright keeps the Chromium it installed, or null when playwright-core cannot say. */
  playwrightChromium(): string | null;
  /** Unpacks @sparticuz/chromium and answers its binary, or null when the package is absent. */
  sparticuzChromium(): string | null;
}

export function systemChromiumPaths(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      ...(env.HOME ? [join(env.HOME, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'), join(env.HOME, 'Applications/Chromium.app/Contents/MacOS/Chromium')] : []),
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
    return roots.flatMap((root) => [join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(root, 'Chromium', 'Application', 'chrome.exe')]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];
}

/** The browser to launch, or an Error whose message is one sentence naming the four ways to get one. */
export function resolveChromium(probe: Probe = hostProbe()): ChromiumChoice {
  const chosen = probe.env.JQL_CHROMIUM;
  if (chosen) {
    if (!probe.exists(chosen)) throw new Error(`JQL_CHROMIUM names ${chosen}, which does not exist.`);
    return { executablePath: chosen, source: 'JQL_CHROMIUM', args: [...CHROMIUM_ARGS] };
  }
  const installed = probe.playwrightChromium();
  if (installed && probe.exists(installed)) return { executablePath: installed, source: 'playwright', args: [...CHROMIUM_ARGS] };
  const system = systemChromiumPaths(probe.platform, probe.env).find((path) => probe.exists(path));
  if (system) return { executablePath: system, source: 'system', args: [...CHROMIUM_ARGS] };
  if (probe.platform === 'linux' && (probe.arch === 'x64' || probe.arch === 'arm64')) {
    const packaged = probe.sparticuzChromium();
    if (packaged && probe.exists(packaged)) return { executablePath: packaged, source: '@sparticuz/chromium', args: [...CHROMIUM_ARGS, ...SPARTICUZ_EXTRA_ARGS] };
  }
  throw new Error(NO_CHROMIUM_MESSAGE);
}

const RESOLVED_ENV = 'JQL_CHROMIUM_RESOLVED';

/**
 * resolveChromium() once per test run: the answer is handed to child processes (Playwright's
 * workers evaluate the config again) through the environment.
 */
export function chromiumForThisRun(): ChromiumChoice {
  const known = process.env[RESOLVED_ENV];
  if (known) return JSON.parse(known) as ChromiumChoice;
  const choice = resolveChromium();
  process.env[RESOLVED_ENV] = JSON.stringify(choice);
  return choice;
}

function hostProbe(): Probe {
  const require = createRequire(import.meta.url);
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    exists: existsSync,
    playwrightChromium() {
      try {
        const core = require('playwright-core') as { chromium: { executablePath(): string } };
        return core.chromium.executablePath();
      } catch {
        return null;
      }
    },
    sparticuzChromium() {
      try {
        require.resolve('@sparticuz/chromium');
      } catch {
        return null;
      }
      // Its executablePath() is async (it unpacks the binary on first use), and Playwright's config
      // is read synchronously: a child process does the unpacking and prints the path.
      const script = "import('@sparticuz/chromium').then(async (m) => process.stdout.write(await m.default.executablePath()))";
      try {
        return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: import.meta.dirname, timeout: 120_000 }).trim() || null;
      } catch {
        return null;
      }
    },
  };
}
