import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, FORBIDDEN_ARGS, NO_CHROMIUM_MESSAGE, resolveChromium, SPARTICUZ_EXTRA_ARGS, type Probe } from './resolve-chromium.ts';

/** A machine described by the files it has. */
function machine(files: string[], overrides: Partial<Probe> = {}): Probe & { unpacked: number } {
  const present = new Set(files);
  const probe = {
    unpacked: 0,
    env: {},
    platform: 'linux' as NodeJS.Platform,
    arch: 'x64',
    exists: (path: string) => present.has(path),
    playwrightChromium: () => '/home/u/.cache/ms-playwright/chromium-1200/chrome-linux/chrome',
    sparticuzChromium() {
      probe.unpacked += 1;
      present.add('/tmp/chromium');
      return '/tmp/chromium';
    },
    ...overrides,
  };
  return probe;
}

describe('resolveChromium', () => {
  it('takes JQL_CHROMIUM first, even when other browsers exist', () => {
    const probe = machine(['/opt/my/chrome', '/usr/bin/chromium'], { env: { JQL_CHROMIUM: '/opt/my/chrome' } });
    expect(resolveChromium(probe)).toMatchObject({ executablePath: '/opt/my/chrome', source: 'JQL_CHROMIUM' });
  });

  it('says so in one sentence when JQL_CHROMIUM names a missing file', () => {
    const probe = machine(['/usr/bin/chromium'], { env: { JQL_CHROMIUM: '/nowhere/chrome' } });
    expect(() => resolveChromium(probe)).toThrow('JQL_CHROMIUM names /nowhere/chrome, which does not exist.');
  });

  it("prefers Playwright's own browser to a system one", () => {
    const probe = machine(['/home/u/.cache/ms-playwright/chromium-1200/chrome-linux/chrome', '/usr/bin/chromium']);
    expect(resolveChromium(probe)).toMatchObject({ source: 'playwright', executablePath: '/home/u/.cache/ms-playwright/chromium-1200/chrome-linux/chrome' });
  });

  it('takes a system Chromium or Chrome when Playwright installed none, without unpacking the package', () => {
    const probe = machine(['/usr/bin/google-chrome']);
    expect(resolveChromium(probe)).toMatchObject({ source: 'system', executablePath: '/usr/bin/google-chrome' });
    expect(probe.unpacked).toBe(0);
  });

  it('knows the usual paths of macOS and Windows', () => {
    const mac = machine(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'], { platform: 'darwin', arch: 'arm64' });
    expect(resolveChromium(mac).source).toBe('system');
    const chrome = 'C:\\Program Files/Google/Chrome/Application/chrome.exe';
    const windows = machine([chrome], { platform: 'win32', env: { PROGRAMFILES: 'C:\\Program Files' } });
    expect(resolveChromium(windows).executablePath.replaceAll('\\', '/')).toBe(chrome.replaceAll('\\', '/'));
  });

  it('falls back to @sparticuz/chromium on Linux x64 and arm64, with only the flags it needs to start', () => {
    for (const arch of ['x64', 'arm64']) {
      const choice = resolveChromium(machine([], { arch }));
      expect(choice).toMatchObject({ source: '@sparticuz/chromium', executablePath: '/tmp/chromium' });
      expect(choice.args).toEqual([...CHROMIUM_ARGS, ...SPARTICUZ_EXTRA_ARGS]);
    }
  });

  it('does not use the package on other platforms, and fails with one sentence naming the four ways', () => {
    const probe = machine([], { platform: 'darwin' });
    expect(() => resolveChromium(probe)).toThrow(NO_CHROMIUM_MESSAGE);
    expect(probe.unpacked).toBe(0);
    for (const way of ['JQL_CHROMIUM', 'npx playwright install chromium', 'Google Chrome on the system', '@sparticuz/chromium']) expect(NO_CHROMIUM_MESSAGE).toContain(way);
    expect(NO_CHROMIUM_MESSAGE.trim().split(/[.!?](\s|$)/).filter((part) => part && part.trim()).length).toBe(1);
  });

  it('fails the same way on Linux when the package is not installed', () => {
    expect(() => resolveChromium(machine([], { sparticuzChromium: () => null }))).toThrow(NO_CHROMIUM_MESSAGE);
  });

  it('never launches a browser with web security, mixed-content blocking or site isolation turned off', () => {
    const choices = [
      resolveChromium(machine(['/x'], { env: { JQL_CHROMIUM: '/x' } })),
      resolveChromium(machine(['/usr/bin/chromium'])),
      resolveChromium(machine([])),
    ];
    for (const choice of choices) {
      for (const arg of choice.args) expect(FORBIDDEN_ARGS.some((forbidden) => arg.startsWith(forbidden))).toBe(false);
      expect(choice.args).toContain('--no-sandbox');
    }
  });
});
