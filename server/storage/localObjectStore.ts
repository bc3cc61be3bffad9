/**
 * The embedded object store: objects are files under DATA_DIR/objects, uploads arrive by presigned
 * PUT at /api/storage/objects/<key> (see routes/storage.ts). A PUT streams into DATA_DIR/tmp,
 * counting bytes and hashing as it goes, stops at the signed limit, and is renamed into place only
 * when complete, so a reader never sees a half-written object and memory stays flat.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId, systemClock, type Clock } from '../ids';
import type { ObjectInfo, ObjectStore, PresignedPut, PresignPutOptions } from './objectStore';
import { sign, verifySignature, type SignedParams } from './signing';

/** URL path prefix of the local store's PUT endpoint. */
export const LOCAL_STORAGE_PREFIX = '/api/storage/objects/';

/** Why a PUT was refused; the route maps each to a status. */
export type PutFailure =
  'bad_signature' | 'expired' | 'wrong_content_type' | 'too_large' | 'aborted';

/** Thrown by {@link LocalObjectStore.write} when a PUT is refused. */
export class PutRefused extends Error {
  constructor(readonly reason: PutFailure) {
    super(reason);
  }
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/;

/** The local, file-system object store. */
export class LocalObjectStore implements ObjectStore {
  private readonly objectsDir: string;
  private readonly tmpDir: string;

  /**
   * @param dataDir DATA_DIR; objects go to dataDir/objects, partial uploads to dataDir/tmp
   * @param secret HMAC key for presigned URLs
   * @param clock epoch-ms clock (tests pass a fixed one)
   */
  constructor(
    dataDir: string,
    private readonly secret: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.objectsDir = path.join(dataDir, 'objects');
    this.tmpDir = path.join(dataDir, 'tmp');
  }

  /** Creates the store's folders. */
  async init(): Promise<void> {
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  /** The temporary folder (tests check it is left empty). */
  get temporaryDirectory(): string {
    return this.tmpDir;
  }

  private pathFor(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error('Invalid object key');
    return path.join(this.objectsDir, key);
  }

  presignPut(key: string, options: PresignPutOptions): PresignedPut {
    this.pathFor(key);
    const params: SignedParams = {
      method: 'PUT',
      key,
      expires: this.clock() + options.expiresInMs,
      contentType: options.contentType,
      maxBytes: options.maxBytes,
    };
    const query = new URLSearchParams({
      expires: String(params.expires),
      max: String(params.maxBytes),
      ct: params.contentType,
      sig: sign(this.secret, params),
    });
    return {
      url: `${LOCAL_STORAGE_PREFIX}${key}?${query.toString()}`,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType, ...options.headers },
    };
  }

  /**
   * Checks a PUT's signature, expiry and content type against its query.
   * @returns the signed maximum size in bytes
   * @throws PutRefused when any check fails
   */
  authorizePut(
    key: string,
    query: Record<string, string | undefined>,
    contentType: string,
  ): number {
    const expires = Number(query.expires);
    const maxBytes = Number(query.max);
    const signedType = query.ct ?? '';
    const params: SignedParams = { method: 'PUT', key, expires, contentType: signedType, maxBytes };
    if (!KEY_PATTERN.test(key) || !Number.isFinite(expires) || !Number.isFinite(maxBytes)) {
      throw new PutRefused('bad_signature');
    }
    if (!verifySignature(this.secret, params, query.sig ?? ''))
      throw new PutRefused('bad_signature');
    if (expires < this.clock()) throw new PutRefused('expired');
    if (contentType.split(';')[0]?.trim().toLowerCase() !== signedType.toLowerCase()) {
      throw new PutRefused('wrong_content_type');
    }
    return maxBytes;
  }

  /**
   * Streams a body into the object `key`, never holding it whole in memory.
   * @param body the request stream
   * @param maxBytes stop and refuse once more than this many bytes arrived
   * @returns the stored size and sha256
   * @throws PutRefused('too_large') past the limit, PutRefused('aborted') when the body broke off;
   *   in both cases nothing is left behind.
   */
  async write(key: string, body: Readable, maxBytes: number): Promise<ObjectInfo> {
    const target = this.pathFor(key);
    const tmp = path.join(this.tmpDir, `${newId()}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) {
          callback(new PutRefused('too_large'));
          return;
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, createWriteStream(tmp, { flags: 'wx' }));
      const sha256 = hash.digest('hex');
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(`${tmp}.sha256`, sha256);
      await rename(`${tmp}.sha256`, `${target}.sha256`);
      await rename(tmp, target);
      return { size, sha256 };
    } catch (error) {
      await rm(tmp, { force: true });
      await rm(`${tmp}.sha256`, { force: true });
      if (error instanceof PutRefused) throw error;
      throw new PutRefused('aborted');
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const file = this.pathFor(key);
    try {
      const info = await stat(file);
      const sha256 = await readFile(`${file}.sha256`, 'utf8').catch(() => undefined);
      return sha256 ? { size: info.size, sha256 } : { size: info.size };
    } catch {
      return null;
    }
  }

  read(key: string): Readable {
    return createReadStream(this.pathFor(key));
  }

  async delete(key: string): Promise<void> {
    const file = this.pathFor(key);
    await rm(file, { force: true });
    await rm(`${file}.sha256`, { force: true });
  }
}
