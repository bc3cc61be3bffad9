/**
 * End-to-end tests: Playwright drives Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
 * against the server that `npm start` runs, on a temporary DATA_DIR and its own port.
 * e2e/session-timeout.spec.ts runs in its own project against a second server (port E2E_PORT + 1,
 * or E2E_SESSION_PORT) whose sessions end after E2E_SESSION_IDLE_SECONDS of inactivity (the
 * test-only SESSION_IDLE_SECONDS), so the timeout warning comes after seconds, not 28 minutes.
 * e2e/s3Uploads.spec.ts runs in the `s3` project against a third server (E2E_PORT + 2, or
 * E2E_S3_PORT) with OBJECT_STORE=s3 on a single-node OpenStack Swift that e2e/s3Services.mjs
 * starts behind a CORS-adding proxy (ports E2E_PORT + 3 to + 7). Where Swift is not installed the
 * project is left out (with the reason printed); under CI=true it always runs.
 */
import { execFileSync } from 'node:child_process';
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
const S3_SPEC = /s3Uploads\.spec\.ts$/;
const s3Port = Number(process.env.E2E_S3_PORT ?? port + 2);
const swiftPort = s3Port + 1;
const s3ProxyPort = s3Port + 2;
process.env.E2E_S3_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-s3-'));
process.env.E2E_SWIFT_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-swift-'));
/** Whether the S3 project runs: Swift is installed (CI installs it, and there it must run). */
const withS3 = (() => {
  if (/^(true|1)$/i.test(process.env.CI ?? '')) return true;
  try {
    execFileSync('sh', ['-c', 'command -v swift-proxy-server'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('[s3 project] left out: OpenStack Swift is not installed');
    return false;
  }
})();

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  // Under CI a failed test runs up to twice more; one that passes on a retry is reported as flaky
  // (listed by name in the run's output), and one that fails every attempt fails the run.
  retries: /^(true|1)$/i.test(process.env.CI ?? '') ? 2 : 0,
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
    { name: 'app', testIgnore: [SESSION_SPEC, S3_SPEC] },
    {
      name: 'session-timeout',
      testMatch: SESSION_SPEC,
      use: { baseURL: `http://localhost:${sessionPort}` },
    },
    ...(withS3
      ? [{ name: 's3', testMatch: S3_SPEC, use: { baseURL: `http://localhost:${s3Port}` } }]
      : []),
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
    ...(withS3
      ? [
          {
            command: 'node e2e/s3Services.mjs',
            url: `http://127.0.0.1:${s3ProxyPort}/healthcheck`,
            timeout: 120_000,
            // Its SIGTERM handler stops Swift.
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
            reuseExistingServer: false,
            stdout: 'pipe' as const,
            env: {
              E2E_SWIFT_PORT: String(swiftPort),
              E2E_SWIFT_BACKEND_PORT: String(s3Port + 3),
              E2E_S3_PROXY_PORT: String(s3ProxyPort),
              E2E_S3_APP_ORIGIN: `http://localhost:${s3Port}`,
              E2E_SWIFT_DIR: process.env.E2E_SWIFT_DIR,
              AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
            },
          },
          {
            command: 'node scripts/start.mjs',
            url: `http://localhost:${s3Port}/api/health`,
            timeout: 240_000,
            reuseExistingServer: false,
            stdout: 'pipe' as const,
            env: {
              PORT: String(s3Port),
              DATA_DIR: process.env.E2E_S3_DATA_DIR,
              DOSSIER_ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
              LOG_LEVEL: 'warn',
              CLIENT_DIR: clientDir,
              OBJECT_STORE: 's3',
              S3_ENDPOINT: `http://127.0.0.1:${swiftPort}`,
              // Browsers reach the bucket through the CORS-adding proxy.
              S3_PUBLIC_ENDPOINT: `http://127.0.0.1:${s3ProxyPort}`,
              S3_REGION: 'us-east-1',
              S3_BUCKET: 'dossier',
              S3_ACCESS_KEY_ID: 'test:tester',
              S3_SECRET_ACCESS_KEY: 'testing',
              S3_FORCE_PATH_STYLE: '1',
              AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
            },
          },
        ]
      : []),
  ],
});
