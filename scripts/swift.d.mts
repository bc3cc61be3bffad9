// Types of scripts/swift.mjs (a single-node OpenStack Swift with its S3 API).

/** The S3 access key of the tempauth user scripts/swift.mjs configures. */
export const SWIFT_ACCESS_KEY_ID: string;
/** Its secret (test only). */
export const SWIFT_SECRET_ACCESS_KEY: string;

/** Whether the Swift servers are installed (swift-proxy-server and swift-ring-builder on PATH). */
export function swiftInstalled(): boolean;

/**
 * Starts a single-node Swift in `dir` and creates `bucket` (see scripts/swift.mjs).
 * @throws when Swift is not installed or does not answer within the timeout
 */
export function startSwift(options?: {
  dir?: string;
  port?: number;
  backendPort?: number;
  bucket?: string;
  timeoutMs?: number;
  wait?: boolean;
  detached?: boolean;
}): Promise<{ endpoint: string; dir: string; bucket: string }>;

/** Stops the Swift servers started in `dir` (a missing one is not an error). */
export function stopSwift(dir: string): void;
