/**
 * Business constants and limits of the product, each named once and imported by the client and the
 * server alike. Source: SPEC.md section 9 unless noted.
 */
import type { FolderColorKey } from './organise';

/** Product name; also the page title (SPEC section 2). */
export const PRODUCT_NAME = 'Dossier';

/** Maximum size of one uploaded file, in bytes (100 MB, SPEC sections 5 and 9). */
export const MAX_FILE_SIZE_BYTES = 104_857_600;

/** Default content type when the extension gives none (SPEC section 3). */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** Upload stall timeout: no progress for this long aborts the file, in milliseconds. */
export const UPLOAD_STALL_TIMEOUT_MS = 30_000;

/**
 * Default most files one upload may hold at a time (SPEC section 5: the product's own count is not
 * shown; configurable with UPLOAD_MAX_FILES).
 */
export const DEFAULT_MAX_FILES_PER_UPLOAD = 100;

/**
 * Files larger than this many bytes go by resumable multipart upload (10 MiB; configurable with
 * UPLOAD_MULTIPART_THRESHOLD).
 */
export const MULTIPART_THRESHOLD_BYTES = 10 * 1024 * 1024;

/** Smallest multipart part except the last, in bytes (5 MiB, as S3 requires). */
export const MULTIPART_MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * Default multipart part size, in bytes (10 MiB; configurable with UPLOAD_PART_SIZE): a 100 MB
 * file is 10 requests, and a dropped connection loses at most 10 MiB of work.
 */
export const MULTIPART_PART_BYTES = 10 * 1024 * 1024;

/** Most parts of one multipart upload (as S3 allows). */
export const MULTIPART_MAX_PARTS = 10_000;

/** Success toast closes itself after this many milliseconds. */
export const SUCCESS_TOAST_MS = 8_000;

/** Info messages last this many milliseconds. */
export const INFO_MESSAGE_MS = 5_000;

/** The session-expiry dialog counts down from this many milliseconds ... */
export const SESSION_COUNTDOWN_MS = 120_000;
/** ... in steps of this many milliseconds. */
export const SESSION_COUNTDOWN_STEP_MS = 1_000;

/** Normal session: time before the timeout warning, in milliseconds (28 min). */
export const SESSION_WARNING_MS = 1_680_000;
/** Single-sign-on session: time before the timeout warning, in milliseconds (7.97 h). */
export const SSO_SESSION_WARNING_MS = 28_680_000;
/** Normal session idle length in minutes. */
export const SESSION_MINUTES = 30;
/** Single-sign-on session idle length in minutes. */
export const SSO_SESSION_MINUTES = 480;
/** Default absolute lifetime of a normal session, in hours (SESSION_MAX_AGE_HOURS). */
export const SESSION_MAX_AGE_HOURS = 12;
/** Default absolute lifetime of a partner single-sign-on session, in hours (7 days). */
export const SSO_SESSION_MAX_AGE_HOURS = 168;
/**
 * User input counts as activity at most once per this many milliseconds (into the store and the
 * record shared by the tabs; docs/architecture.md "Sessions").
 */
export const ACTIVITY_THROTTLE_MS = 1_000;
/**
 * Minimum milliseconds between two keep-alive calls (POST /api/auth/extend-session) a tab sends
 * while its user is active; activity inside the interval is sent at its end.
 */
export const KEEP_ALIVE_INTERVAL_MS = 60_000;

/** Phone input limit, in characters (SPEC section 5). */
export const PHONE_INPUT_MAX_LENGTH = 250;

/** The root folder's id and name (SPEC section 2: "id empty, name Root"). */
export const ROOT_FOLDER_ID = '';
export const ROOT_FOLDER_NAME = 'Root';

/** Default page size of every paged list (the spec leaves page sizes open; DESIGN.md list shape). */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest page size a client may ask for. */
export const MAX_PAGE_SIZE = 500;
/**
 * Largest page number a client may ask for: page × page size stays a safe offset for both
 * databases (a larger one answers 400 instead of overflowing the query).
 */
export const MAX_PAGE_NUMBER = 1_000_000;

/** Lifetime of a presigned upload URL, in milliseconds (at most 15 minutes). */
export const PRESIGNED_URL_TTL_MS = 15 * 60 * 1000;

/** Navigation entries and their routes (SPEC section 2). */
export const NAV_ITEMS = [
  { label: 'Home', route: '/home' },
  { label: 'Recent', route: '/recent' },
  { label: 'Favorites', route: '/favorites' },
  { label: 'Shared', route: '/shared' },
  { label: 'Archive', route: '/archive' },
  { label: 'History', route: '/history' },
] as const;

/** Where the user is sent on session timeout (SPEC section 2). */
export const LOGOUT_ROUTE = '/logout';
/** The two valid landing locations (SPEC section 2). */
export const LANDING_HOME = 'home';
export const LANDING_SHARED = '/sharing/shared';

/** Feature flags and their defaults (SPEC section 3). */
export const FEATURE_FLAG_DEFAULTS = {
  switchIn: false,
  fileStats: true,
  folderColors: true,
  folderTreeView: true,
  sharing: true,
  archivePaging: true,
  maintenanceMode: false,
} as const;
export type FeatureFlags = { [K in keyof typeof FEATURE_FLAG_DEFAULTS]: boolean };

/** Longest name of a file or folder, in UTF-16 code units, after trimming (product choice). */
export const MAX_NAME_LENGTH = 255;

/**
 * Default dayjs date format: month abbreviation, day, year, hour:minute am/pm, e.g.
 * "Mar 5, 2024 2:07 pm" (SPEC section 9).
 */
export const DEFAULT_DATE_FORMAT = 'MMM D, YYYY h:mm a';

/** Most items one bulk call may name (a bulk call on 10,000 items works). */
export const BULK_MAX_ITEMS = 10_000;

/** One colour of the folder palette: a label and its light and dark hex codes (SPEC section 9). */
export interface FolderColor {
  key: FolderColorKey;
  label: string;
  /** Hex of the light shade (fills, backgrounds). */
  light: string;
  /** Hex of the dark shade (icon, text on light backgrounds). */
  dark: string;
}

/**
 * The folder colour palette (SPEC section 9): Default, Grey, and Dark and Light variants of Red,
 * Orange, Yellow, Green, Blue, Purple and Pink, each with a light and a dark hex code. 'default'
 * means no colour of the user's own.
 */
export const FOLDER_COLORS: readonly FolderColor[] = [
  { key: 'default', label: 'Default', light: '#e6f4ff', dark: '#1677ff' },
  { key: 'grey', label: 'Grey', light: '#f0f0f0', dark: '#595959' },
  { key: 'dark_red', label: 'Dark Red', light: '#ffccc7', dark: '#a8071a' },
  { key: 'light_red', label: 'Light Red', light: '#fff1f0', dark: '#ff4d4f' },
  { key: 'dark_orange', label: 'Dark Orange', light: '#ffd8bf', dark: '#ad4e00' },
  { key: 'light_orange', label: 'Light Orange', light: '#fff7e6', dark: '#fa8c16' },
  { key: 'dark_yellow', label: 'Dark Yellow', light: '#fff1b8', dark: '#ad8b00' },
  { key: 'light_yellow', label: 'Light Yellow', light: '#feffe6', dark: '#fadb14' },
  { key: 'dark_green', label: 'Dark Green', light: '#d9f7be', dark: '#237804' },
  { key: 'light_green', label: 'Light Green', light: '#f6ffed', dark: '#52c41a' },
  { key: 'dark_blue', label: 'Dark Blue', light: '#bae0ff', dark: '#003eb3' },
  { key: 'light_blue', label: 'Light Blue', light: '#e6f4ff', dark: '#4096ff' },
  { key: 'dark_purple', label: 'Dark Purple', light: '#efdbff', dark: '#391085' },
  { key: 'light_purple', label: 'Light Purple', light: '#f9f0ff', dark: '#9254de' },
  { key: 'dark_pink', label: 'Dark Pink', light: '#ffd6e7', dark: '#9e1068' },
  { key: 'light_pink', label: 'Light Pink', light: '#fff0f6', dark: '#f759ab' },
];

/**
 * Users and lockout (docs/architecture.md "Users and lockout"). Defaults of the server's
 * LOGIN_MAX_FAILURES, LOCKOUT_MINUTES and PASSWORD_MIN_LENGTH.
 */
/** Wrong passwords in a row that lock an account. */
export const LOGIN_MAX_FAILURES = 5;
/** How long a lock lasts, in minutes; 0 means until an administrator unlocks the account. */
export const LOCKOUT_MINUTES = 15;
/** Shortest password the password policy accepts, in characters. */
export const PASSWORD_MIN_LENGTH = 12;
/** Longest password accepted, in characters (bounds the hashing work per request). */
export const PASSWORD_MAX_LENGTH = 1024;
