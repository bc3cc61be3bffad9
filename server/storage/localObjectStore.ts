/**
 * The embedded object store: objects are files under DATA_DIR/objects; uploads arrive at presigned
 * URLs under /api/storage/objects/<key> (see routes/storage.ts), speaking a small S3-compatible
 * dialect so that @uppy/aws-s3 talks to it unchanged:
 *
 * - single PUT: the body streams into DATA_DIR/tmp, counted as it goes (and hashed, sha256, when
 *   the signed size is at most the inline checksum limit, see below), stops at the signed limit,
 *   and is published only when complete;
 * - multipart: `POST ?uploads` creates DATA_DIR/tmp/multipart/<uploadId>/ with a manifest (key,
 *   declared size, part size, content type) and an empty data file of the object's size;
 *   `PUT ?uploadId&partNumber` streams part n straight into its place in that file (offset
 *   (n - 1) × part size; every part but the last has exactly the part size) and then writes a
 *   small marker `part-<n>.json` with the part's ETag (a fresh random token per stored version) and
 *   size, so a part sent again replaces the earlier one and a part that broke off is simply not
 *   listed; `GET ?uploadId` lists the marked parts (to resume); `POST ?uploadId` (complete) checks
 *   the client's part list (1..N in order, the stored ETags) and that the parts add up to the
 *   declared size, and publishes the data file — the parts are joined where they were written,
 *   with no second copy; `DELETE ?uploadId` drops the folder.
 *
 * Stored objects are immutable: publishing hard-links the finished file to the object's path,
 * which fails when an object is already there (`exists`, 409), so no request can replace the bytes
 * of a stored object, and parts cannot be written while their upload completes. The routes also
 * refuse every write (PUT, create, part, complete) for a key whose upload is no longer pending
 * (routes/storage.ts).
 *
 * Checksums: an object of at most `inlineChecksumMaxBytes` (the multipart threshold, 10 MiB, by
 * default: the files whose sha256 the browser computes and sends with the record call) is hashed
 * while it streams in and kept with a `.sha256` sidecar. Larger objects (multipart uploads always)
 * are not hashed on the way in: on a 2-CPU machine the sha256 of 100 MB costs about 64 ms of CPU,
 * a third of the upload itself. Their sha256 is computed afterwards by {@link checksum}, reading
 * the object once (the record call when the client sent a sha256 to compare, otherwise the
 * background fingerprinting of services/fingerprints.ts).
 *
 * A reader never sees a half-written object and memory stays flat whatever the file size.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { constants as fsConstants, createReadStream, createWriteStream } from 'node:fs';
import {
  access,
  copyFile,
  link,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MULTIPART_MAX_PARTS, MULTIPART_THRESHOLD_BYTES } from '@common/constants';
import { newId, systemClock, type Clock } from '../ids';
import type {
  AbandonedUploadsRemoved,
  ByteRange,
  MultipartRequest,
  MultipartStart,
  ObjectInfo,
  ObjectStore,
  PresignedPut,
  StoredObject,
  PresignedRequest,
  PresignPutOptions,
} from './objectStore';
import { sign, verifySignature, type SignedOperation, type SignedParams } from './signing';

/** URL path prefix of the local store's endpoints. */
export const LOCAL_STORAGE_PREFIX = '/api/storage/objects/';

/** Why a store request was refused; the route maps each to a status and message. */
export type StoreFailure =
  | 'bad_signature'
  | 'expired'
  | 'wrong_content_type'
  | 'too_large'
  | 'aborted'
  | 'no_such_upload'
  | 'invalid_part'
  | 'invalid_part_order'
  | 'size_mismatch'
  | 'malformed_xml'
  | 'busy'
  /** An object is already stored at the key: stored objects are never replaced. */
  | 'exists'
  /** The key's upload is recorded: its file's bytes are never replaced. */
  | 'recorded';

/** Thrown by the store when a request is refused. */
export class StoreRefused extends Error {
  /** @param reason why, see {@link StoreFailure} */
  constructor(readonly reason: StoreFailure) {
    super(reason);
  }
}

/** A request the store accepted: the operation and the facts its signature binds. */
export type AuthorizedRequest = SignedParams;

/** One stored part of a multipart upload. */
export interface StoredPart {
  partNumber: number;
  /** The stored version's ETag: a random hex token, new each time the part is stored. */
  etag: string;
  /** Size in bytes. */
  size: number;
  /** Last modification, epoch ms. */
  lastModified: number;
}

/** What the manifest of a multipart upload records. */
interface MultipartManifest {
  key: string;
  uploadId: string;
  contentType: string;
  declaredSize: number;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  createdAt: number;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/;
const UPLOAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
const PART_MARKER = /^part-(\d{5})\.json$/;
const DATA_FILE = 'data';

/**
 * A Transform that counts what passes, hashes it (when given a hash) and refuses more than
 * `maxBytes`.
 */
function meter(maxBytes: number, hash: Hash | null) {
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new StoreRefused('too_large'));
        return;
      }
      hash?.update(chunk);
      callback(null, chunk);
    },
  });
  return { transform, size: () => size };
}

/** The byte range of part `partNumber` (1-based) of an object, or null when it has none. */
function partRange(
  manifest: Pick<MultipartManifest, 'declaredSize' | 'partSize'>,
  partNumber: number,
): { start: number; size: number } | null {
  const start = (partNumber - 1) * manifest.partSize;
  if (partNumber < 1 || start >= manifest.declaredSize) return null;
  return { start, size: Math.min(manifest.partSize, manifest.declaredSize - start) };
}

/** The sha256 kept in an object file's sidecar, or undefined when it has none (yet). */
async function keptSha256(file: string): Promise<string | undefined> {
  return (await readFile(`${file}.sha256`, 'utf8').catch(() => '')) || undefined;
}

/** A token unique to one stored version of an object (its ETag when it has no checksum). */
function versionTag(): string {
  return randomBytes(16).toString('hex');
}

/**
 * A temporary file of a single PUT untouched this long (ms) belongs to no running upload: a PUT
 * writes to it as its bytes arrive, and the browser gives up after 30 s without progress. Removed
 * at start even when other instances share DATA_DIR.
 */
export const TEMP_FILE_IDLE_MS = 10 * 60_000;

/** The local, file-system object store. */
export class LocalObjectStore implements ObjectStore {
  private readonly objectsDir: string;
  private readonly tmpDir: string;
  private readonly multipartDir: string;
  /** Upload ids whose complete is running (a second complete waits its turn: 409). */
  private readonly completing = new Set<string>();
  /** "uploadId/partNumber" of the parts being written (the same part twice at once: 409). */
  private readonly writing = new Set<string>();
  /** Manifests read so far, by upload id. */
  private readonly manifests = new Map<string, MultipartManifest>();
  /** When each multipart upload was last marked active (store clock, ms). */
  private readonly touched = new Map<string, number>();

  /**
   * @param dataDir DATA_DIR; objects go to dataDir/objects, partial uploads to dataDir/tmp
   * @param secret HMAC key for presigned URLs
   * @param clock epoch-ms clock (tests pass a settable one)
   * @param inlineChecksumMaxBytes single PUTs signed for at most this many bytes are hashed
   *   (sha256) as they stream in; larger objects are hashed later by {@link checksum}
   */
  constructor(
    dataDir: string,
    private readonly secret: string,
    private readonly clock: Clock = systemClock,
    private readonly inlineChecksumMaxBytes: number = MULTIPART_THRESHOLD_BYTES,
  ) {
    this.objectsDir = path.join(dataDir, 'objects');
    this.tmpDir = path.join(dataDir, 'tmp');
    this.multipartDir = path.join(this.tmpDir, 'multipart');
  }

  /**
   * Creates the store's folders and removes the temporary files of single uploads an earlier run
   * left behind ({@link removePartialUploads}). Call it once, before the store serves requests.
   */
  async init(): Promise<void> {
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.multipartDir, { recursive: true });
    await this.removePartialUploads();
  }

  /**
   * Removes the temporary files directly in DATA_DIR/tmp (single PUTs that broke off, e.g. when
   * the server stopped mid-upload, and their sidecars) untouched for {@link TEMP_FILE_IDLE_MS}:
   * other app instances may share the folder, and their running PUTs write to theirs all the time.
   * Multipart upload folders stay: they resume from their stored parts.
   * @returns how many files were removed
   */
  async removePartialUploads(): Promise<number> {
    let removed = 0;
    const before = this.clock() - TEMP_FILE_IDLE_MS;
    for (const entry of await readdir(this.tmpDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const file = path.join(this.tmpDir, entry.name);
      const info = await stat(file).catch(() => null);
      if (!info || info.mtimeMs >= before) continue;
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  /** The temporary folder of single uploads (tests check it is left empty). */
  get temporaryDirectory(): string {
    return this.tmpDir;
  }

  /** The folder holding one folder per multipart upload in progress. */
  get multipartDirectory(): string {
    return this.multipartDir;
  }

  private pathFor(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error('Invalid object key');
    return path.join(this.objectsDir, key);
  }

  private uploadDir(uploadId: string): string {
    if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new StoreRefused('no_such_upload');
    return path.join(this.multipartDir, uploadId);
  }

  private presign(params: SignedParams, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams(extra);
    if (params.uploadId) query.set('uploadId', params.uploadId);
    if (params.partNumber) query.set('partNumber', String(params.partNumber));
    if (params.partSize) query.set('partSize', String(params.partSize));
    query.set('expires', String(params.expires));
    query.set('max', String(params.maxBytes));
    if (params.contentType) query.set('ct', params.contentType);
    query.set('sig', sign(this.secret, params));
    return `${LOCAL_STORAGE_PREFIX}${params.key}?${query.toString()}`;
  }

  /** The local store's uploads land at the object's own key (see the class comment). */
  stagingKey(key: string): string {
    return key;
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    this.pathFor(key);
    const params: SignedParams = {
      op: 'put',
      method: 'PUT',
      key,
      uploadId: '',
      partNumber: 0,
      partSize: 0,
      expires: this.clock() + options.expiresInMs,
      contentType: options.contentType,
      maxBytes: options.maxBytes,
    };
    return {
      url: this.presign(params),
      method: 'PUT',
      headers: { 'Content-Type': options.contentType, ...options.headers },
    };
  }

  /**
   * The local store's id of an upload is the server's own: the upload itself is made by its
   * presigned create request ({@link createMultipartUpload}, which checks the content type), so
   * nothing is made here.
   */
  async startMultipartUpload(key: string, start: MultipartStart): Promise<string> {
    this.pathFor(key);
    this.uploadDir(start.uploadId);
    return start.uploadId;
  }

  /** The upload is the object already: its facts as they are. */
  async commitUpload(key: string): Promise<ObjectInfo | null> {
    return this.head(key);
  }

  async presignMultipart(
    request: MultipartRequest,
    expiresInMs: number,
  ): Promise<PresignedRequest> {
    this.pathFor(request.key);
    this.uploadDir(request.uploadId);
    const base = {
      key: request.key,
      uploadId: request.uploadId,
      partNumber: 0,
      partSize: 0,
      expires: this.clock() + expiresInMs,
      contentType: '',
      maxBytes: 0,
    };
    let params: SignedParams;
    let headers: Record<string, string> = {};
    let extra: Record<string, string> = {};
    switch (request.op) {
      case 'create':
        params = {
          ...base,
          op: 'create',
          method: 'POST',
          contentType: request.contentType,
          maxBytes: request.declaredSize,
          partSize: request.partSize,
        };
        headers = { 'Content-Type': request.contentType };
        extra = { uploads: '' };
        break;
      case 'part':
        if (!Number.isInteger(request.partNumber) || request.partNumber < 1) {
          throw new Error('Invalid part number');
        }
        params = {
          ...base,
          op: 'part',
          method: 'PUT',
          partNumber: request.partNumber,
          maxBytes: request.maxBytes,
        };
        break;
      case 'list':
        params = { ...base, op: 'list', method: 'GET' };
        break;
      case 'complete':
        params = { ...base, op: 'complete', method: 'POST', maxBytes: request.declaredSize };
        break;
      case 'abort':
        params = { ...base, op: 'abort', method: 'DELETE' };
        break;
    }
    return { url: this.presign(params, extra), method: params.method, headers };
  }

  /**
   * Checks a store request's signature, expiry and content type against its query. The operation
   * follows from the method and the query (S3 style): PUT is a single upload, or a part with
   * `uploadId` and `partNumber`; POST with `uploads` creates a multipart upload, POST with
   * `uploadId` completes it; GET with `uploadId` lists its parts; DELETE with `uploadId` aborts it.
   * @param method the HTTP method
   * @param key the object key of the path
   * @param query the URL query
   * @param contentType the request's Content-Type header ('' when absent)
   * @returns the verified request
   * @throws StoreRefused('bad_signature' | 'expired' | 'wrong_content_type')
   */
  authorize(
    method: string,
    key: string,
    query: Record<string, string | undefined>,
    contentType: string,
  ): AuthorizedRequest {
    const uploadId = query.uploadId ?? '';
    let op: SignedOperation;
    if (method === 'PUT') op = uploadId ? 'part' : 'put';
    else if (method === 'POST') op = query.uploads !== undefined ? 'create' : 'complete';
    else if (method === 'GET') op = 'list';
    else if (method === 'DELETE') op = 'abort';
    else throw new StoreRefused('bad_signature');
    if (op !== 'put' && !uploadId) throw new StoreRefused('bad_signature');
    const params: SignedParams = {
      op,
      method,
      key,
      uploadId,
      partNumber: op === 'part' ? Number(query.partNumber) : 0,
      partSize: op === 'create' ? Number(query.partSize) : 0,
      expires: Number(query.expires),
      contentType: query.ct ?? '',
      maxBytes: Number(query.max),
    };
    if (
      !KEY_PATTERN.test(key) ||
      (uploadId !== '' && !UPLOAD_ID_PATTERN.test(uploadId)) ||
      !Number.isFinite(params.expires) ||
      !Number.isFinite(params.maxBytes) ||
      !Number.isInteger(params.partNumber) ||
      !Number.isSafeInteger(params.partSize) ||
      (op === 'part' && (params.partNumber < 1 || params.partNumber > MULTIPART_MAX_PARTS))
    ) {
      throw new StoreRefused('bad_signature');
    }
    if (!verifySignature(this.secret, params, query.sig ?? '')) {
      throw new StoreRefused('bad_signature');
    }
    if (params.expires < this.clock()) throw new StoreRefused('expired');
    const given = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (params.contentType !== '' && given !== params.contentType.toLowerCase()) {
      throw new StoreRefused('wrong_content_type');
    }
    return params;
  }

  /**
   * Streams a body into the object `key`, never holding it whole in memory; hashed (sha256) on the
   * way when `maxBytes` is at most the inline checksum limit.
   * @param body the request stream
   * @param maxBytes stop and refuse once more than this many bytes arrived
   * @returns the stored size, the sha256 when computed, and the ETag to answer
   * @throws StoreRefused('too_large') past the limit, StoreRefused('aborted') when the body broke
   *   off, StoreRefused('exists') when an object is already stored at the key (it stays as it
   *   was); in every case no temporary file is left behind.
   */
  async write(key: string, body: Readable, maxBytes: number): Promise<StoredObject> {
    const target = this.pathFor(key);
    const tmp = path.join(this.tmpDir, `${newId()}.part`);
    const hash = maxBytes <= this.inlineChecksumMaxBytes ? createHash('sha256') : null;
    const counter = meter(maxBytes, hash);
    try {
      await pipeline(body, counter.transform, createWriteStream(tmp, { flags: 'wx' }));
      const sha256 = hash?.digest('hex');
      await this.publish(tmp, target, sha256);
      return sha256
        ? { size: counter.size(), sha256, etag: sha256 }
        : { size: counter.size(), etag: versionTag() };
    } catch (error) {
      await rm(tmp, { force: true });
      await rm(`${tmp}.sha256`, { force: true });
      if (error instanceof StoreRefused) throw error;
      throw new StoreRefused('aborted');
    }
  }

  /**
   * Publishes a finished temporary file at `target` without ever replacing an object: the file is
   * hard-linked to the target (which fails when the target exists) and the temporary name removed;
   * then its sha256 sidecar is put beside it, or any stale sidecar (left by a crash) removed, so a
   * sidecar never describes other bytes.
   * @throws StoreRefused('exists') when an object is already stored at `target` (nothing changes)
   */
  private async publish(tmp: string, target: string, sha256: string | undefined): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await link(tmp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreRefused('exists');
      throw error;
    }
    await rm(tmp, { force: true });
    if (sha256) {
      const sidecar = `${tmp}.sha256`;
      await writeFile(sidecar, sha256);
      await rename(sidecar, `${target}.sha256`);
    } else {
      await rm(`${target}.sha256`, { force: true });
    }
  }

  /**
   * The manifest of a multipart upload of `key` (kept in memory once read; dropped when the
   * upload completes or is aborted or removed).
   * @throws StoreRefused('no_such_upload')
   */
  private async manifest(key: string, uploadId: string): Promise<MultipartManifest> {
    const dir = this.uploadDir(uploadId);
    let manifest = this.manifests.get(uploadId);
    if (!manifest) {
      try {
        manifest = JSON.parse(
          await readFile(path.join(dir, 'manifest.json'), 'utf8'),
        ) as MultipartManifest;
      } catch {
        throw new StoreRefused('no_such_upload');
      }
      this.manifests.set(uploadId, manifest);
    }
    // An upload id signed for another key names no upload of this one.
    if (manifest.key !== key || manifest.uploadId !== uploadId) {
      throw new StoreRefused('no_such_upload');
    }
    return manifest;
  }

  /**
   * Starts a multipart upload (idempotent for the same key and upload id): the manifest and an
   * empty data file of the declared size that the parts are written into.
   * @param declaredSize the exact size in bytes the completed object must have
   * @param partSize the size of every part but the last, in bytes
   * @throws StoreRefused('no_such_upload') when the id is taken by another key
   */
  async createMultipartUpload(
    key: string,
    uploadId: string,
    contentType: string,
    declaredSize: number,
    partSize: number,
  ): Promise<void> {
    this.pathFor(key);
    const dir = this.uploadDir(uploadId);
    try {
      await this.manifest(key, uploadId);
      return;
    } catch {
      // Not there yet (or broken): write it.
    }
    if (!Number.isSafeInteger(partSize) || partSize < 1) throw new StoreRefused('bad_signature');
    await mkdir(dir, { recursive: true });
    const data = await open(path.join(dir, DATA_FILE), 'w');
    try {
      await data.truncate(declaredSize);
    } finally {
      await data.close();
    }
    const manifest: MultipartManifest = {
      key,
      uploadId,
      contentType,
      declaredSize,
      partSize,
      createdAt: this.clock(),
    };
    const tmp = path.join(dir, `manifest.${newId()}.tmp`);
    await writeFile(tmp, JSON.stringify(manifest));
    await rename(tmp, path.join(dir, 'manifest.json'));
    this.manifests.set(uploadId, manifest);
    await this.touch(uploadId);
  }

  /**
   * Marks a multipart upload as active now (by the store's clock), at most once a minute: the
   * manifest's modification time is its last activity, which {@link removeAbandonedUploads}
   * compares with its cutoff.
   */
  private async touch(uploadId: string): Promise<void> {
    const now = this.clock();
    // Once a minute is enough for a cutoff counted in hours.
    if (now - (this.touched.get(uploadId) ?? -Infinity) < 60_000) return;
    this.touched.set(uploadId, now);
    const seconds = now / 1000;
    await utimes(path.join(this.uploadDir(uploadId), 'manifest.json'), seconds, seconds).catch(
      () => undefined,
    );
  }

  /** Forgets what is kept in memory about a multipart upload. */
  private forget(uploadId: string): void {
    this.manifests.delete(uploadId);
    this.touched.delete(uploadId);
  }

  private markerPath(uploadId: string, partNumber: number): string {
    return path.join(this.uploadDir(uploadId), `part-${String(partNumber).padStart(5, '0')}.json`);
  }

  /**
   * Stores one part, streaming it straight into its place in the upload's data file; the part is
   * listed only once it arrived whole (its marker is written last). A part sent again replaces the
   * earlier one.
   * @param maxBytes refuse past this many bytes (the signed limit)
   * @returns the stored version's ETag and the part's size
   * @throws StoreRefused('no_such_upload' | 'too_large' | 'invalid_part' (no such part, or a body of
   *   another size than the part's) | 'busy' (the same part is being written) | 'aborted')
   */
  async writePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    maxBytes: number,
  ): Promise<{ etag: string; size: number }> {
    const manifest = await this.manifest(key, uploadId);
    const range = partRange(manifest, partNumber);
    if (!range) throw new StoreRefused('invalid_part');
    const lock = `${uploadId}/${partNumber}`;
    // A part written while the upload completes would change the object being published.
    if (this.writing.has(lock) || this.completing.has(uploadId)) throw new StoreRefused('busy');
    this.writing.add(lock);
    try {
      // The earlier version's marker goes before any byte is written: a complete that reads the
      // markers meanwhile (here or on another instance) finds the part missing, never stale.
      await rm(this.markerPath(uploadId, partNumber), { force: true });
      const counter = meter(Math.min(maxBytes, range.size), null);
      try {
        await pipeline(
          body,
          counter.transform,
          createWriteStream(path.join(this.uploadDir(uploadId), DATA_FILE), {
            flags: 'r+',
            start: range.start,
          }),
        );
      } catch (error) {
        if (error instanceof StoreRefused) throw error;
        throw new StoreRefused(
          (await this.manifest(key, uploadId).catch(() => null)) ? 'aborted' : 'no_such_upload',
        );
      }
      if (counter.size() !== range.size) throw new StoreRefused('invalid_part');
      const etag = randomBytes(16).toString('hex');
      // Written in place: a marker torn by a crash does not parse, so the part is simply not
      // listed and is sent again.
      try {
        await writeFile(
          this.markerPath(uploadId, partNumber),
          JSON.stringify({ etag, size: range.size }),
          { flag: 'wx' },
        );
      } catch {
        throw new StoreRefused('no_such_upload');
      }
      await this.touch(uploadId);
      return { etag, size: range.size };
    } finally {
      this.writing.delete(lock);
    }
  }

  /**
   * The parts stored whole so far, by part number.
   * @throws StoreRefused('no_such_upload')
   */
  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    await this.manifest(key, uploadId);
    const parts = await this.readPartMarkers(this.uploadDir(uploadId));
    return [...parts.values()].sort((a, b) => a.partNumber - b.partNumber);
  }

  /**
   * Reads the part markers of an upload's folder from disk, every time: other app instances
   * sharing DATA_DIR write parts of the same upload, so no copy is kept in memory.
   */
  private async readPartMarkers(dir: string): Promise<Map<number, StoredPart>> {
    const parts = new Map<number, StoredPart>();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const match = PART_MARKER.exec(name);
      if (!match) continue;
      const file = path.join(dir, name);
      try {
        const marker = JSON.parse(await readFile(file, 'utf8')) as { etag: string; size: number };
        const info = await stat(file);
        parts.set(Number(match[1]), {
          partNumber: Number(match[1]),
          etag: marker.etag,
          size: marker.size,
          lastModified: info.mtimeMs,
        });
      } catch {
        // A marker torn by a crash: the part is not listed and is sent again.
      }
    }
    return parts;
  }

  /**
   * Completes a multipart upload: the client's list must name parts 1..N in order, each stored
   * with the given ETag, adding up to exactly the declared size. The data file the parts were
   * written into is published (never over an existing object), without a checksum (see {@link checksum}); the upload's
   * folder is then removed.
   * Completing an upload that already completed answers the stored object.
   * @param parts the client's part list
   * @param declaredSize the size the object must have (from the signature)
   * @returns the object's size and its ETag, S3's form for multipart objects: a digest of the
   *   parts' ETags and the part count (`<hex>-<N>`)
   * @throws StoreRefused('no_such_upload' | 'invalid_part_order' | 'invalid_part' |
   *   'size_mismatch' | 'busy' | 'exists' | 'aborted')
   */
  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
    declaredSize: number,
  ): Promise<StoredObject> {
    const target = this.pathFor(key);
    let manifest: MultipartManifest;
    try {
      manifest = await this.manifest(key, uploadId);
    } catch (error) {
      const existing = await this.head(key);
      if (existing && existing.size === declaredSize) return { ...existing, etag: versionTag() };
      throw error;
    }
    if (manifest.declaredSize !== declaredSize) throw new StoreRefused('size_mismatch');
    if (parts.length > MULTIPART_MAX_PARTS) throw new StoreRefused('invalid_part_order');
    parts.forEach((part, index) => {
      if (part.partNumber !== index + 1) throw new StoreRefused('invalid_part_order');
    });
    if (
      this.completing.has(uploadId) ||
      [...this.writing].some((w) => w.startsWith(`${uploadId}/`))
    ) {
      throw new StoreRefused('busy');
    }
    this.completing.add(uploadId);
    const dir = this.uploadDir(uploadId);
    // The folder is claimed by renaming it first (atomic, also on a folder other app instances
    // share): a part write that starts afterwards finds no data file, one already running removed
    // its part's marker before writing, so the check below refuses the list, and of two completes
    // only one gets the folder.
    const claimed = path.join(this.multipartDir, `${uploadId}.done-${newId()}`);
    try {
      await rename(dir, claimed);
    } catch {
      this.completing.delete(uploadId);
      const existing = await this.head(key);
      if (existing && existing.size === declaredSize) return { ...existing, etag: versionTag() };
      throw new StoreRefused('no_such_upload');
    }
    let published = false;
    try {
      const stored = await this.readPartMarkers(claimed);
      let total = 0;
      for (const part of parts) {
        const known = stored.get(part.partNumber);
        if (!known || known.etag !== part.etag.toLowerCase())
          throw new StoreRefused('invalid_part');
        total += known.size;
      }
      if (total !== declaredSize) throw new StoreRefused('size_mismatch');
      await this.publish(path.join(claimed, DATA_FILE), target, undefined);
      published = true;
      this.forget(uploadId);
      // The folder (manifest and markers) is removed without waiting; what a crash leaves behind
      // the cleanup removes.
      void rm(claimed, { recursive: true, force: true }).catch(() => undefined);
      const digest = createHash('sha256');
      for (const part of parts) digest.update(part.etag.toLowerCase());
      return { size: total, etag: `${digest.digest('hex').slice(0, 32)}-${parts.length}` };
    } catch (error) {
      // Not completed: the upload goes back where its parts can be sent again and listed.
      if (!published) await rename(claimed, dir).catch(() => undefined);
      if (error instanceof StoreRefused) throw error;
      throw new StoreRefused('aborted');
    } finally {
      this.completing.delete(uploadId);
    }
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    let dir: string;
    try {
      dir = this.uploadDir(uploadId);
      await this.manifest(key, uploadId);
    } catch {
      return;
    }
    this.forget(uploadId);
    await rm(dir, { recursive: true, force: true });
  }

  async removeAbandonedUploads(before: number): Promise<AbandonedUploadsRemoved> {
    const removed: AbandonedUploadsRemoved = { multipart: 0, partial: 0 };
    for (const entry of await readdir(this.multipartDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(this.multipartDir, entry.name);
      // The upload's last activity: the manifest's time (see touch), or the folder's without one.
      const manifest = await stat(path.join(dir, 'manifest.json')).catch(() => null);
      const latest = manifest?.mtimeMs ?? (await stat(dir).catch(() => null))?.mtimeMs ?? 0;
      if (latest < before && !this.completing.has(entry.name)) {
        this.forget(entry.name);
        await rm(dir, { recursive: true, force: true });
        removed.multipart += 1;
      }
    }
    for (const entry of await readdir(this.tmpDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const file = path.join(this.tmpDir, entry.name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < before) {
        await rm(file, { force: true });
        removed.partial += 1;
      }
    }
    return removed;
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const file = this.pathFor(key);
    try {
      const info = await stat(file);
      const sha256 = await keptSha256(file);
      return sha256 ? { size: info.size, sha256 } : { size: info.size };
    } catch {
      return null;
    }
  }

  /**
   * The object's hex sha256: the sidecar's, else computed by reading the object once (1 MiB reads)
   * and kept as its sidecar. A sidecar is written only when the object did not change while it was
   * read (same size and modification time), so it never describes other bytes.
   * @returns the sha256, or null when there is no object
   */
  async checksum(key: string): Promise<string | null> {
    const file = this.pathFor(key);
    const kept = await keptSha256(file);
    if (kept) return kept;
    let before;
    try {
      before = await stat(file);
    } catch {
      return null;
    }
    const hash = createHash('sha256');
    try {
      await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
    } catch {
      return null;
    }
    const sha256 = hash.digest('hex');
    const after = await stat(file).catch(() => null);
    if (after && after.size === before.size && after.mtimeMs === before.mtimeMs) {
      const tmp = path.join(this.tmpDir, `${newId()}.sha256`);
      await writeFile(tmp, sha256);
      await rename(tmp, `${file}.sha256`).catch(() => rm(tmp, { force: true }));
      // Deleted meanwhile: no sidecar may outlive its object.
      if (!(await stat(file).catch(() => null))) await rm(`${file}.sha256`, { force: true });
    }
    return sha256;
  }

  /**
   * Readiness: the objects folder and the temporary folder exist and this process may write to
   * them (a read-only or missing mount fails; `access` writes nothing).
   * @throws the failed `access` call's error
   */
  async ready(): Promise<void> {
    await access(this.objectsDir, fsConstants.W_OK);
    await access(this.tmpDir, fsConstants.W_OK);
  }

  read(key: string, range?: ByteRange): Readable {
    return createReadStream(
      this.pathFor(key),
      range ? { start: range.start, end: range.end } : undefined,
    );
  }

  async delete(key: string): Promise<void> {
    const file = this.pathFor(key);
    await rm(file, { force: true });
    await rm(`${file}.sha256`, { force: true });
  }

  /**
   * Copies an object through a temporary file that is published (never over an existing object)
   * with the source's sha256 sidecar when it has one (else the copy is fingerprinted later, like its source), so the
   * copy appears whole.
   * @throws when the source is missing; no temporary file is left behind
   */
  async copyObject(fromKey: string, toKey: string): Promise<void> {
    const source = this.pathFor(fromKey);
    const target = this.pathFor(toKey);
    const tmp = path.join(this.tmpDir, `${newId()}.part`);
    try {
      // A copy-on-write clone where the file system has them (objects are never changed in place),
      // else a plain copy.
      await copyFile(source, tmp, fsConstants.COPYFILE_FICLONE);
      await this.publish(tmp, target, await keptSha256(source));
    } catch (error) {
      await rm(tmp, { force: true });
      await rm(`${tmp}.sha256`, { force: true });
      throw error;
    }
  }
}
