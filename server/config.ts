/**
 * Every environment variable the server reads, parsed and documented in one place (README.md
 * "Configuration" lists the same). `loadConfig()` never logs secrets.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_FILE_SIZE_BYTES, MULTIPART_MIN_PART_BYTES } from '@common/constants';
import { HEAP_GROWING_PERCENT } from './heap';
import type { S3StoreSettings } from './storage/s3ObjectStore';
import {
  DEFAULT_UPLOAD_RESTRICTIONS,
  normalizeAllowedType,
  type UploadRestrictions,
} from '@common/uploads';
import {
  FEATURE_FLAG_DEFAULTS,
  LOCKOUT_MINUTES,
  LOGIN_MAX_FAILURES,
  PASSWORD_MIN_LENGTH,
  SESSION_MAX_AGE_HOURS,
  SSO_SESSION_MAX_AGE_HOURS,
  type FeatureFlags,
} from '@common/constants';

/** Parsed server configuration. Durations are milliseconds, sizes bytes. */
export interface Config {
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** Interface to listen on (HOST, default 0.0.0.0). */
  host: string;
  /** Folder for the SQLite file, the local object store and the session secret (DATA_DIR, ./data). */
  dataDir: string;
  /** DATABASE_URL; default: an SQLite file in DATA_DIR. `postgres://…` selects PostgreSQL. */
  databaseUrl: string;
  /** 'sqlite' or 'postgres', derived from databaseUrl. */
  dialect: 'sqlite' | 'postgres';
  /** Secret for session tokens and presigned URLs (SESSION_SECRET, else kept in DATA_DIR/secret). */
  sessionSecret: string;
  /** Folder holding the built client (CLIENT_DIR, default ./dist/client). */
  clientDir: string;
  /** Seeded administrator's username (DOSSIER_ADMIN_USERNAME, default admin). */
  adminUsername: string;
  /** Seeded administrator's password (DOSSIER_ADMIN_PASSWORD); generated and printed once when unset. */
  adminPassword: string | undefined;
  /** Trust X-Forwarded-* headers from a reverse proxy (TRUST_PROXY=1). */
  trustProxy: boolean;
  /** Sign-in attempts allowed per IP per minute (LOGIN_RATE_LIMIT, default 20). */
  loginRateLimitPerMinute: number;
  /**
   * Wrong passwords in a row that lock an account (LOGIN_MAX_FAILURES, default 5, at least 1;
   * docs/architecture.md "Users and lockout").
   */
  loginMaxFailures: number;
  /**
   * How long a lock lasts in ms (LOCKOUT_MINUTES, default 15); 0 keeps the account locked until an
   * administrator unlocks it.
   */
  lockoutMs: number;
  /**
   * Growth of V8's old generation allowed over what survived the last full collection, in percent
   * (HEAP_GROWING_PERCENT, default 50; 0 leaves V8's own factor of up to 300%); see server/heap.ts.
   */
  heapGrowingPercent: number;
  /** Shortest password the policy accepts, in characters (PASSWORD_MIN_LENGTH, default 12, 8–128). */
  passwordMinLength: number;
  /** Absolute session lifetime in ms (SESSION_MAX_AGE_HOURS, default 12 h). */
  sessionMaxAgeMs: number;
  /** Absolute lifetime of a partner single-sign-on session in ms (SSO_SESSION_MAX_AGE_HOURS, 168 h). */
  ssoSessionMaxAgeMs: number;
  /**
   * Tests only: the idle limit of every session in seconds (SESSION_IDLE_SECONDS, at least 1);
   * null (unset) keeps the product's 30 minutes, 480 for partner single-sign-on users.
   */
  sessionIdleSeconds: number | null;
  /**
   * Feature flags served at GET /api/rest/feature_flags: FEATURE_FLAG_DEFAULTS overridden by
   * FEATURE_FLAGS (e.g. `maintenanceMode=1,sharing=0`). maintenanceMode also guards the API.
   */
  featureFlags: FeatureFlags;
  /**
   * Log level (LOG_LEVEL, default info; silent in tests): fatal, error, warn, info (one line per
   * request), debug (also health, readiness and metrics requests), trace or silent.
   */
  logLevel: string;
  /**
   * Bearer token that GET /metrics requires (METRICS_TOKEN); null (unset) disables the endpoint
   * (404) and collects no metrics (docs/operations.md "Monitoring").
   */
  metricsToken: string | null;
  /**
   * How long a SIGTERM/SIGINT waits for in-flight requests and running imaging jobs before the
   * process exits anyway, in ms (SHUTDOWN_TIMEOUT_MS, default 25000).
   */
  shutdownTimeoutMs: number;
  /**
   * Upload restrictions served to the client and enforced by the server: the most files
   * one user may upload at a time (UPLOAD_MAX_FILES, default 100), the smallest file in bytes
   * (UPLOAD_MIN_FILE_SIZE, default 0), the allowed types (UPLOAD_ALLOWED_TYPES, comma-separated
   * extensions or content types, default any), the multipart threshold in bytes
   * (UPLOAD_MULTIPART_THRESHOLD, default 10485760) and the part size in bytes (UPLOAD_PART_SIZE,
   * default 10485760, at least 5242880). The largest file is always 104857600 bytes (SPEC section 9).
   */
  uploads: UploadRestrictions;
  /**
   * Pending uploads and multipart parts older than this many ms are removed
   * (UPLOAD_ABANDONED_AFTER_HOURS, default 24 h).
   */
  uploadAbandonedAfterMs: number;
  /** How often the cleanup job runs, in ms; 0 disables it (UPLOAD_CLEANUP_INTERVAL_MINUTES, 60). */
  uploadCleanupIntervalMs: number;
  /**
   * The partner app whose single-sign-on users get the 480-minute session and the user's sso flag
   * (SSO_PARTNER_APP_ID, e.g. `crm`; unset: no partner does). Other partners' token sign-ins get
   * the normal session.
   */
  ssoPartnerAppId: string | null;
  /** Lifetime of a single-sign-on token in ms (SSO_TOKEN_TTL_SECONDS, default 60, at least 1). */
  ssoTokenTtlMs: number;
  /**
   * Requests per IP per minute to the token endpoints: generate_token and the token sign-ins
   * (SSO_RATE_LIMIT, default 60). A partner server signing many users in at once asks one token
   * per sign-in from its own IP: raise it for such a partner.
   */
  ssoRateLimitPerMinute: number;
  /**
   * Outgoing mail server for invitations (SMTP_URL, e.g. `smtp://user:pass@host:587`); null keeps
   * every message in the outbox in DATA_DIR/outbox, readable by administrators.
   */
  smtpUrl: string | null;
  /** Sender address of invitation e-mail (MAIL_FROM, default `Dossier <no-reply@localhost>`). */
  mailFrom: string;
  /**
   * The app's public address, used in links sent by e-mail (PUBLIC_URL, default
   * http://localhost:PORT). No trailing slash.
   */
  publicUrl: string;
  /** Lifetime of a share link without an explicit expiry, in days (SHARE_LINK_DEFAULT_DAYS, 14). */
  shareLinkDefaultDays: number;
  /** Longest expiry a share link may be given, in days (SHARE_LINK_MAX_DAYS, 90). */
  shareLinkMaxDays: number;
  /** Wrong share-link passwords in a row that lock the link (SHARE_PASSWORD_MAX_FAILURES, 5). */
  sharePasswordMaxFailures: number;
  /** How long a password-protected link stays locked, in ms (SHARE_PASSWORD_LOCK_MINUTES, 15). */
  sharePasswordLockMs: number;
  /**
   * Document imaging jobs run at once by this instance (IMAGING_CONCURRENCY, default half the CPU
   * cores and at least 1: 1 on a 2-core machine; 0 runs none, the queue then waits for another
   * instance). Each runs one child process at a time.
   */
  imagingConcurrency: number;
  /** Longest run of one conversion or recognition process, in ms (IMAGING_TIMEOUT_SECONDS, 300). */
  imagingTimeoutMs: number;
  /** Attempts of an imaging job before it gives up (IMAGING_MAX_ATTEMPTS, default 5, at least 1). */
  imagingMaxAttempts: number;
  /** Tesseract languages of text recognition (OCR_LANGUAGES, e.g. `eng+deu`; default eng). */
  ocrLanguages: string[];
  /**
   * Where file bytes live (OBJECT_STORE): 'local' (default) keeps them under DATA_DIR/objects;
   * 's3' in an S3-compatible bucket described by {@link Config.s3}.
   */
  objectStore: 'local' | 's3';
  /** The S3 bucket and how to reach it (S3_* variables); null unless OBJECT_STORE=s3. */
  s3: S3StoreSettings | null;
}

/**
 * Reads the S3 settings (OBJECT_STORE=s3): S3_BUCKET (required), S3_REGION (default us-east-1),
 * S3_ENDPOINT (default AWS's own), S3_PUBLIC_ENDPOINT (the address browsers reach presigned URLs
 * at, e.g. a CORS-adding proxy; default S3_ENDPOINT), S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY
 * (both or neither: neither uses the AWS SDK's own credential chain) and S3_FORCE_PATH_STYLE
 * (1/true for `<endpoint>/<bucket>/<key>` addresses, which Swift and most non-AWS services need).
 * @throws Error naming the variable that is missing or malformed (never its value)
 */
function s3SettingsFrom(env: NodeJS.ProcessEnv): S3StoreSettings {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) throw new Error('OBJECT_STORE=s3 needs S3_BUCKET');
  const url = (name: string): string | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    if (!/^https?:\/\/[^/]+/.test(value)) {
      throw new Error(`${name} must be an http:// or https:// address`);
    }
    return value.replace(/\/+$/, '');
  };
  const endpoint = url('S3_ENDPOINT');
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return {
    endpoint,
    publicEndpoint: url('S3_PUBLIC_ENDPOINT') ?? endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: /^(1|true|yes|on)$/i.test(env.S3_FORCE_PATH_STYLE?.trim() ?? ''),
  };
}

/** Reads OBJECT_STORE. @throws Error for anything but local or s3. */
function objectStoreFrom(value: string | undefined): Config['objectStore'] {
  const store = (value?.trim() || 'local').toLowerCase();
  if (store !== 'local' && store !== 's3') throw new Error('OBJECT_STORE must be local or s3');
  return store;
}

/**
 * Imaging jobs run at once by default: half the CPU cores, at least 1 (1 on a 2-core machine), so
 * that conversions leave the other half to requests.
 */
function defaultImagingConcurrency(): number {
  return Math.max(1, Math.floor(os.availableParallelism() / 2));
}

/**
 * Reads OCR_LANGUAGES: Tesseract language codes separated by `+`, `,` or spaces.
 * @throws Error for a code that is not letters, digits and underscores
 */
function ocrLanguagesFrom(value: string | undefined): string[] {
  const languages = (value ?? '')
    .split(/[+,\s]+/)
    .map((code) => code.trim())
    .filter((code) => code !== '');
  for (const code of languages) {
    if (!/^[A-Za-z0-9_]+$/.test(code)) {
      throw new Error(`OCR_LANGUAGES: "${code}" is not a Tesseract language code (e.g. eng)`);
    }
  }
  return languages.length > 0 ? languages : ['eng'];
}

/**
 * Reads the upload restrictions from the environment (see {@link Config.uploads}).
 * @throws Error for a malformed number, a part size under 5 MiB or a threshold over the maximum
 */
function uploadRestrictionsFrom(env: NodeJS.ProcessEnv): UploadRestrictions {
  const defaults = DEFAULT_UPLOAD_RESTRICTIONS;
  const partSize = intFrom(env.UPLOAD_PART_SIZE, defaults.part_size, 'UPLOAD_PART_SIZE');
  if (partSize < MULTIPART_MIN_PART_BYTES || partSize > MAX_FILE_SIZE_BYTES) {
    throw new Error(
      `UPLOAD_PART_SIZE must be between ${MULTIPART_MIN_PART_BYTES} and ${MAX_FILE_SIZE_BYTES}`,
    );
  }
  const maxFiles = intFrom(env.UPLOAD_MAX_FILES, defaults.max_number_of_files, 'UPLOAD_MAX_FILES');
  if (!Number.isInteger(maxFiles) || maxFiles < 1) {
    throw new Error('UPLOAD_MAX_FILES must be a whole number of at least 1');
  }
  const minSize = intFrom(env.UPLOAD_MIN_FILE_SIZE, defaults.min_file_size, 'UPLOAD_MIN_FILE_SIZE');
  if (minSize > MAX_FILE_SIZE_BYTES) {
    throw new Error(`UPLOAD_MIN_FILE_SIZE must be at most ${MAX_FILE_SIZE_BYTES}`);
  }
  return {
    max_file_size: MAX_FILE_SIZE_BYTES,
    min_file_size: minSize,
    max_number_of_files: maxFiles,
    allowed_file_types: (env.UPLOAD_ALLOWED_TYPES ?? '')
      .split(',')
      .map(normalizeAllowedType)
      .filter((type) => type !== ''),
    multipart_threshold: intFrom(
      env.UPLOAD_MULTIPART_THRESHOLD,
      defaults.multipart_threshold,
      'UPLOAD_MULTIPART_THRESHOLD',
    ),
    part_size: partSize,
  };
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
}

/**
 * Parses FEATURE_FLAGS: comma-separated `name=value` pairs over FEATURE_FLAG_DEFAULTS, where value
 * is 1/0, true/false or on/off (any case) and a bare name means on; blanks are ignored.
 * @param value the variable's text, or undefined
 * @returns every flag with its value
 * @throws Error naming an unknown flag or a malformed value (the server refuses to start)
 */
export function parseFeatureFlags(value: string | undefined): FeatureFlags {
  const flags: { -readonly [K in keyof FeatureFlags]: boolean } = { ...FEATURE_FLAG_DEFAULTS };
  for (const part of (value ?? '').split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const [rawName = '', rawValue] = item.split('=', 2).map((text) => text.trim());
    if (!Object.prototype.hasOwnProperty.call(FEATURE_FLAG_DEFAULTS, rawName)) {
      const known = Object.keys(FEATURE_FLAG_DEFAULTS).join(', ');
      throw new Error(`FEATURE_FLAGS: unknown flag "${rawName}" (known: ${known})`);
    }
    const text = (rawValue ?? '1').toLowerCase();
    let on: boolean;
    if (['1', 'true', 'on'].includes(text)) on = true;
    else if (['0', 'false', 'off'].includes(text)) on = false;
    else throw new Error(`FEATURE_FLAGS: "${rawName}" must be 1/0, true/false or on/off`);
    flags[rawName as keyof FeatureFlags] = on;
  }
  return flags;
}

/** The levels LOG_LEVEL accepts (pino's, and silent). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads LOG_LEVEL (default info). @throws Error for a level pino does not know. */
function logLevelFrom(value: string | undefined): string {
  const level = (value ?? '').trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(level)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return level;
}

/** Reads SESSION_IDLE_SECONDS (tests only). @throws Error unless unset or a whole number ≥ 1. */
function idleSecondsFrom(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error('SESSION_IDLE_SECONDS must be a whole number ≥ 1');
  return n;
}

/**
 * Reads the session secret from SESSION_SECRET or DATA_DIR/secret, creating the file (mode 0600)
 * with 32 random bytes at first start.
 */
function sessionSecretFor(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/**
 * Builds the configuration from an environment (process.env by default) and creates DATA_DIR.
 * @throws Error for a malformed number or an unsupported DATABASE_URL scheme.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = env.DATABASE_URL || `sqlite://${path.join(dataDir, 'dossier.sqlite')}`;
  let dialect: Config['dialect'];
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) dialect = 'postgres';
  else if (databaseUrl.startsWith('sqlite://')) dialect = 'sqlite';
  else throw new Error('DATABASE_URL must start with postgres:// or sqlite://');
  return {
    port: intFrom(env.PORT, 3000, 'PORT'),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    dialect,
    sessionSecret: sessionSecretFor(dataDir, env.SESSION_SECRET),
    clientDir: path.resolve(env.CLIENT_DIR ?? './dist/client'),
    adminUsername: env.DOSSIER_ADMIN_USERNAME || 'admin',
    adminPassword: env.DOSSIER_ADMIN_PASSWORD || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    loginRateLimitPerMinute: intFrom(env.LOGIN_RATE_LIMIT, 20, 'LOGIN_RATE_LIMIT'),
    loginMaxFailures: Math.max(
      1,
      Math.floor(intFrom(env.LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES, 'LOGIN_MAX_FAILURES')),
    ),
    lockoutMs: intFrom(env.LOCKOUT_MINUTES, LOCKOUT_MINUTES, 'LOCKOUT_MINUTES') * 60_000,
    heapGrowingPercent: Math.floor(
      intFrom(env.HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT, 'HEAP_GROWING_PERCENT'),
    ),
    passwordMinLength: Math.min(
      128,
      Math.max(
        8,
        Math.floor(intFrom(env.PASSWORD_MIN_LENGTH, PASSWORD_MIN_LENGTH, 'PASSWORD_MIN_LENGTH')),
      ),
    ),
    sessionMaxAgeMs:
      intFrom(env.SESSION_MAX_AGE_HOURS, SESSION_MAX_AGE_HOURS, 'SESSION_MAX_AGE_HOURS') *
      3_600_000,
    ssoSessionMaxAgeMs:
      intFrom(
        env.SSO_SESSION_MAX_AGE_HOURS,
        SSO_SESSION_MAX_AGE_HOURS,
        'SSO_SESSION_MAX_AGE_HOURS',
      ) * 3_600_000,
    sessionIdleSeconds: idleSecondsFrom(env.SESSION_IDLE_SECONDS),
    featureFlags: parseFeatureFlags(env.FEATURE_FLAGS),
    logLevel: logLevelFrom(env.LOG_LEVEL),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    shutdownTimeoutMs: intFrom(env.SHUTDOWN_TIMEOUT_MS, 25_000, 'SHUTDOWN_TIMEOUT_MS'),
    uploads: uploadRestrictionsFrom(env),
    uploadAbandonedAfterMs:
      intFrom(env.UPLOAD_ABANDONED_AFTER_HOURS, 24, 'UPLOAD_ABANDONED_AFTER_HOURS') * 3_600_000,
    uploadCleanupIntervalMs:
      intFrom(env.UPLOAD_CLEANUP_INTERVAL_MINUTES, 60, 'UPLOAD_CLEANUP_INTERVAL_MINUTES') * 60_000,
    ssoPartnerAppId: env.SSO_PARTNER_APP_ID?.trim() || null,
    ssoTokenTtlMs:
      Math.max(1, intFrom(env.SSO_TOKEN_TTL_SECONDS, 60, 'SSO_TOKEN_TTL_SECONDS')) * 1000,
    ssoRateLimitPerMinute: intFrom(env.SSO_RATE_LIMIT, 60, 'SSO_RATE_LIMIT'),
    smtpUrl: env.SMTP_URL?.trim() || null,
    mailFrom: env.MAIL_FROM?.trim() || 'Dossier <no-reply@localhost>',
    publicUrl: (
      env.PUBLIC_URL?.trim() || `http://localhost:${intFrom(env.PORT, 3000, 'PORT')}`
    ).replace(/\/+$/, ''),
    shareLinkDefaultDays: Math.max(
      1,
      intFrom(env.SHARE_LINK_DEFAULT_DAYS, 14, 'SHARE_LINK_DEFAULT_DAYS'),
    ),
    shareLinkMaxDays: Math.max(1, intFrom(env.SHARE_LINK_MAX_DAYS, 90, 'SHARE_LINK_MAX_DAYS')),
    sharePasswordMaxFailures: Math.max(
      1,
      intFrom(env.SHARE_PASSWORD_MAX_FAILURES, 5, 'SHARE_PASSWORD_MAX_FAILURES'),
    ),
    sharePasswordLockMs:
      intFrom(env.SHARE_PASSWORD_LOCK_MINUTES, 15, 'SHARE_PASSWORD_LOCK_MINUTES') * 60_000,
    imagingConcurrency: Math.floor(
      intFrom(env.IMAGING_CONCURRENCY, defaultImagingConcurrency(), 'IMAGING_CONCURRENCY'),
    ),
    imagingTimeoutMs:
      Math.max(1, intFrom(env.IMAGING_TIMEOUT_SECONDS, 300, 'IMAGING_TIMEOUT_SECONDS')) * 1000,
    imagingMaxAttempts: Math.max(
      1,
      Math.floor(intFrom(env.IMAGING_MAX_ATTEMPTS, 5, 'IMAGING_MAX_ATTEMPTS')),
    ),
    ocrLanguages: ocrLanguagesFrom(env.OCR_LANGUAGES),
    objectStore: objectStoreFrom(env.OBJECT_STORE),
    s3: objectStoreFrom(env.OBJECT_STORE) === 's3' ? s3SettingsFrom(env) : null,
  };
}
