/** The desktop app's own e2e (scripts/e2e-electron.mjs runs it when an Electron binary exists). */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
});
