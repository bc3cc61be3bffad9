/**
 * End-to-end tests: Playwright drives Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
 * against the server that `npm start` runs, on a temporary DATA_DIR and its own port.
 * e2e/session-timeout.spec.ts runs in its own project against a second server (port E2E_PORT + 1,
 * or E2E_SESSION_PORT) whose sessions end after E2E_SESSION_IDLE_SECONDS of inactivity (the
 * test-only SESSION_IDLE_SECONDS), so the timeout warning comes after seconds, not 28 minutes.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
// Set once in the main process; workers inherit it, so every process sees the same folder.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-'));
process.env.E2E_ADMIN_PASSWORD ??= 'e2e-admin-password';
const sessionPort = Number(process.env.E2E_SESSION_PORT ?? port + 1);
process.env.E2E_SESSION_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-session-'));
// 125 s: the warning opens 5 s after the last activity and counts down the spec's 120 s.
process.env.E2E_SESSION_IDLE_SECONDS ??= '125';
/** Both servers serve the same build (the first server builds it before the second starts). */
const clientDir = path.resolve('.test-output', `client-${port}`);
const SESSION_SPEC = /session-timeout\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    headless: true,
    acceptDownloads: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'app', testIgnore: SESSION_SPEC },
    {
      name: 'session-timeout',
      testMatch: SESSION_SPEC,
      use: { baseURL: `http://localhost:${sessionPort}` },
    },
  ],
  webServer: [
    {
      command: 'node scripts/start.mjs',
      url: `http://localhost:${port}/api/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        DOSSIER_ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        // Each port builds into its own folder, so runs on different ports never share a build.
        CLIENT_DIR: clientDir,
      },
    },
    {
      command: 'node scripts/start.mjs',
      url: `http://localhost:${sessionPort}/api/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PORT: String(sessionPort),
        DATA_DIR: process.env.E2E_SESSION_DATA_DIR,
        DOSSIER_ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        CLIENT_DIR: clientDir,
        SESSION_IDLE_SECONDS: process.env.E2E_SESSION_IDLE_SECONDS,
      },
    },
  ],
});
