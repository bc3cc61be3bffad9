/**
 * The object store on an S3-compatible service (OBJECT_STORE=s3; AWS S3, or OpenStack Swift's S3
 * API, which the tests and CI run: scripts/swift.mjs). The browser sends bytes straight to S3 with
 * presigned SigV4 URLs; the server reads, copies and removes objects with the AWS SDK.
 *
 * Keys: an upload of the object `key` lands at `staging/<key>` ({@link stagingKey}); every URL the
 * server signs names a staging key, never `key`. Recording the upload copies it on the server to
 * `key` ({@link commitUpload}: CopyObject, only while the staged object is still the version that
 * was checked, `x-amz-copy-source-if-match`) and removes the staged copy, so a presigned URL
 * replayed after the record can only write a staging object that nothing reads: recorded objects
 * stay immutable without conditional writes (which Swift does not implement).
 *
 * Single uploads: a presigned PUT that signs Content-Type and, when the size was declared,
 * Content-Length, so S3 refuses any other type or size. Multipart uploads: S3 chooses the upload's
 * id, so the server starts the upload itself ({@link startMultipartUpload}) and the upload service
 * keeps S3's UploadId with the pending upload; the browser names the upload by the pending file's
 * id. Its create step (@uppy/aws-s3 POSTs it and reads the UploadId from the XML answer) is a URL
 * of the app itself, `/api/storage/initiated/<key>` (routes/storage.ts), signed with the app's
 * secret, which answers that id; parts (each signed with its exact Content-Length), the part list,
 * the completion and the abort are presigned S3 requests for S3's UploadId (storage/initiated.ts).
 *
 * Checksums: kept as the object's `x-amz-meta-sha256` when record computed one (it is set by the
 * record's copy); otherwise {@link checksum} reads the object each time it is asked (the files
 * table keeps it once computed), never rewriting a recorded object.
 *
 * Secrets: the credentials live in the SDK clients only; errors are rethrown as
 * {@link ObjectStoreError}, naming the operation and S3's error code, never the request.
 */
import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { systemClock, type Clock } from '../ids';
import { StoreRefused } from './localObjectStore';
import type {
  AbandonedUploadsRemoved,
  ByteRange,
  MultipartRequest,
  MultipartStart,
  ObjectInfo,
  ObjectStore,
  PresignedPut,
  PresignedRequest,
  PresignPutOptions,
  StoredObject,
} from './objectStore';
import { initiatedUrl } from './initiated';

/** Prefix of the keys uploads land at before they are recorded. */
const STAGING_PREFIX = 'staging/';

/** The largest object one CopyObject copies (S3's limit); the app's files are far smaller. */
const MAX_COPY_BYTES = 5 * 1024 ** 3;

/** How the S3 store reaches its bucket (server/config.ts reads it from S3_* variables). */
export interface S3StoreSettings {
  /** The address the server uses (S3_ENDPOINT); undefined: AWS's own for the region. */
  endpoint?: string;
  /** The address presigned URLs name, which browsers reach (S3_PUBLIC_ENDPOINT; default endpoint). */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  /** Access key id and secret (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY); undefined: the SDK's chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which Swift and most others need. */
  forcePathStyle: boolean;
}

/**
 * The origins presigned URLs name (for the CSP's connect-src): the public endpoint's, or AWS's own
 * for the region (virtual-hosted and path style) when no endpoint is set.
 */
export function presignedOrigins(settings: S3StoreSettings): string[] {
  const endpoint = settings.publicEndpoint ?? settings.endpoint;
  if (endpoint) return [new URL(endpoint).origin];
  return [
    `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`,
    `https://s3.${settings.region}.amazonaws.com`,
  ];
}

/** An S3 request that failed: the operation and S3's error name and status, nothing more. */
class ObjectStoreError extends Error {
  /**
   * @param operation what the store was doing (e.g. `GetObject`)
   * @param cause the SDK's error (kept for the log's stack, never answered to a client)
   */
  constructor(operation: string, cause: unknown) {
    const name = (cause as { name?: string } | null)?.name ?? 'Error';
    const status = (cause as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata
      ?.httpStatusCode;
    super(`S3 ${operation} failed: ${name}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'ObjectStoreError';
  }
}

/** Whether an SDK error says the object (or upload) is not there. */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return (
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchKey' ||
    e?.name === 'NoSuchUpload' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/** Whether an SDK error is a failed precondition (the object is not the version named). */
function isPreconditionFailed(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}

/** A Transform that counts what passes, hashes it, and refuses more than `maxBytes`. */
function meter(maxBytes: number) {
  let size = 0;
  const hash = createHash('sha256');
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new StoreRefused('too_large'));
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return { transform, size: () => size, sha256: () => hash.digest('hex') };
}

/** The S3 object store. */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly presigner: S3Client;
  private readonly bucket: string;

  /**
   * @param settings the bucket and how to reach it
   * @param secret the app's HMAC key, which signs the create step's app URL
   * @param clock epoch-ms clock (tests pass a settable one)
   */
  constructor(
    settings: S3StoreSettings,
    private readonly secret: string,
    private readonly clock: Clock = systemClock,
  ) {
    const base: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      // Swift's S3 API refuses the SDK's default CRC32 trailers; S3 needs none.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
            },
          }
        : {}),
    };
    this.client = new S3Client({ ...base, endpoint: settings.endpoint });
    this.presigner = new S3Client({
      ...base,
      endpoint: settings.publicEndpoint ?? settings.endpoint,
    });
    this.bucket = settings.bucket;
  }

  /** Closes the SDK clients' connections. */
  destroy(): void {
    this.client.destroy();
    this.presigner.destroy();
  }

  stagingKey(key: string): string {
    return `${STAGING_PREFIX}${key}`;
  }

  private async send<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new ObjectStoreError(operation, error);
    }
  }

  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.stagingKey(key),
      ContentType: options.contentType,
      ContentLength: options.size,
    });
    const signed = new Set(['content-type']);
    if (options.size !== undefined) signed.add('content-length');
    const url = await getSignedUrl(this.presigner, command, {
      expiresIn: Math.max(1, Math.ceil(options.expiresInMs / 1000)),
      signableHeaders: signed,
    });
    // Content-Length is the browser's to set (a forbidden header); it is signed all the same.
    return { url, method: 'PUT', headers: { 'Content-Type': options.contentType } };
  }

  async startMultipartUpload(key: string, start: MultipartStart): Promise<string> {
    const answer = await this.send('CreateMultipartUpload', () =>
      this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.stagingKey(key),
          ContentType: start.contentType,
        }),
      ),
    );
    if (!answer.UploadId) throw new Error('S3 CreateMultipartUpload answered no UploadId');
    return answer.UploadId;
  }

  async presignMultipart(
    request: MultipartRequest,
    expiresInMs: number,
  ): Promise<PresignedRequest> {
    const Key = this.stagingKey(request.key);
    const Bucket = this.bucket;
    const expiresIn = Math.max(1, Math.ceil(expiresInMs / 1000));
    switch (request.op) {
      case 'create':
        // Started by the server already (startMultipartUpload): the app answers its id.
        return {
          url: initiatedUrl(this.secret, request.key, request.uploadId, this.clock() + expiresInMs),
          method: 'POST',
          headers: { 'Content-Type': request.contentType },
        };
      case 'part': {
        const url = await getSignedUrl(
          this.presigner,
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId: request.storeUploadId,
            PartNumber: request.partNumber,
            ContentLength: request.size,
          }),
          { expiresIn, signableHeaders: new Set(['content-length']) },
        );
        return { url, method: 'PUT', headers: {} };
      }
      case 'list': {
        const url = await getSignedUrl(
          this.presigner,
          new ListPartsCommand({ Bucket, Key, UploadId: request.storeUploadId }),
          { expiresIn },
        );
        return { url, method: 'GET', headers: {} };
      }
      case 'complete': {
        const url = await getSignedUrl(
          this.presigner,
          new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: request.storeUploadId }),
          { expiresIn },
        );
        return { url, method: 'POST', headers: {} };
      }
      case 'abort': {
        const url = await getSignedUrl(
          this.presigner,
          new AbortMultipartUploadCommand({ Bucket, Key, UploadId: request.storeUploadId }),
          { expiresIn },
        );
        return { url, method: 'DELETE', headers: {} };
      }
    }
  }

  async abortMultipartUpload(key: string, storeUploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.stagingKey(key),
          UploadId: storeUploadId,
        }),
      );
    } catch (error) {
      if (!isMissing(error)) throw new ObjectStoreError('AbortMultipartUpload', error);
    }
  }

  async commitUpload(key: string, staged: ObjectInfo, sha256?: string): Promise<ObjectInfo | null> {
    const source = this.stagingKey(key);
    let contentType: string | undefined;
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: source, IfMatch: staged.version }),
      );
      contentType = head.ContentType;
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: key,
          CopySource: `${this.bucket}/${encodeURIComponent(source).replaceAll('%2F', '/')}`,
          // Only the version that was checked: a PUT replayed meanwhile is not recorded. A
          // completed multipart upload (ETag `<hex>-<parts>`) cannot be replaced by any URL the
          // server signs (only the server starts multipart uploads), and Swift refuses this
          // condition for it (its copy compares its own manifest ETag), so it is not asked there.
          CopySourceIfMatch: staged.version?.includes('-') ? undefined : staged.version,
          MetadataDirective: 'REPLACE',
          ContentType: contentType,
          Metadata: sha256 ? { sha256 } : undefined,
        }),
      );
    } catch (error) {
      if (isMissing(error) || isPreconditionFailed(error)) return null;
      throw new ObjectStoreError('CopyObject', error);
    }
    await this.delete(source);
    return this.head(key);
  }

  async removeAbandonedUploads(before: number): Promise<AbandonedUploadsRemoved> {
    const removed: AbandonedUploadsRemoved = { multipart: 0, partial: 0 };
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.send('ListMultipartUploads', () =>
        this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: STAGING_PREFIX,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        ),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated) continue;
        if (upload.Initiated.getTime() >= before) continue;
        await this.abortMultipartUpload(upload.Key.slice(STAGING_PREFIX.length), upload.UploadId);
        removed.multipart += 1;
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
    let token: string | undefined;
    for (;;) {
      const page = await this.send('ListObjectsV2', () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: STAGING_PREFIX,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified || object.LastModified.getTime() >= before)
          continue;
        await this.delete(object.Key);
        removed.partial += 1;
      }
      if (!page.IsTruncated || !page.NextContinuationToken) break;
      token = page.NextContinuationToken;
    }
    return removed;
  }

  /**
   * Readiness: a HeadBucket with the server's credentials (the bucket exists and they may use it).
   * @throws ObjectStoreError naming the operation and S3's error code (never the credentials)
   */
  async ready(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw new ObjectStoreError('HeadBucket', error);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const info: ObjectInfo = { size: head.ContentLength ?? 0 };
      const sha256 = head.Metadata?.sha256;
      if (sha256 && /^[0-9a-f]{64}$/.test(sha256)) info.sha256 = sha256;
      if (head.ETag) info.version = head.ETag;
      return info;
    } catch (error) {
      if (isMissing(error)) return null;
      throw new ObjectStoreError('HeadObject', error);
    }
  }

  /**
   * The object's hex sha256: its kept `sha256` metadata, else computed by reading it (not kept in
   * the store: a recorded object is never rewritten; the files table keeps it).
   * @returns null when there is no object
   */
  async checksum(key: string): Promise<string | null> {
    const info = await this.head(key);
    if (!info) return null;
    if (info.sha256) return info.sha256;
    const hash = createHash('sha256');
    try {
      await pipeline(this.read(key), hash);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return hash.digest('hex');
  }

  /**
   * Stores a stream as `key` with lib-storage's Upload (one PUT for a small body, a multipart upload
   * of 5 MiB parts for a larger one, aborted on failure, so the object appears whole or not at all).
   * The sha256 is computed on the way and answered (not kept as metadata: it is known only at the
   * end).
   */
  async write(key: string, body: Readable, maxBytes: number): Promise<StoredObject> {
    const counter = meter(maxBytes);
    const through = new PassThrough();
    const source = pipeline(body, counter.transform, through);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: through },
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      const [, answer] = await Promise.all([source, upload.done()]);
      const sha256 = counter.sha256();
      return { size: counter.size(), sha256, etag: answer.ETag?.replaceAll('"', '') ?? sha256 };
    } catch (error) {
      await upload.abort().catch(() => undefined);
      through.destroy();
      if (error instanceof StoreRefused) throw error;
      throw new StoreRefused('aborted');
    }
  }

  read(key: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      )
      .then((answer) => {
        const body = answer.Body as Readable | undefined;
        if (!body) throw new Error('S3 GetObject answered no body');
        body.on('error', (error: Error) => out.destroy(error));
        out.on('close', () => body.destroy());
        body.pipe(out);
      })
      .catch((error: unknown) => {
        out.destroy(new ObjectStoreError('GetObject', error));
      });
    return out;
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw new ObjectStoreError('DeleteObject', error);
    }
  }

  /**
   * Copies an object on the server (CopyObject keeps its metadata, the kept sha256 with it); the
   * copy appears whole. Objects over 5 GiB would need a multipart copy, which the app's 100 MB
   * limit never asks for: they are refused.
   * @throws when the source is missing or the copy fails
   */
  async copyObject(fromKey: string, toKey: string): Promise<void> {
    const source = await this.head(fromKey);
    if (!source) throw new Error('The object to copy does not exist.');
    if (source.size > MAX_COPY_BYTES) throw new Error('Objects over 5 GiB are not copied.');
    await this.send('CopyObject', () =>
      this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: toKey,
          CopySource: `${this.bucket}/${encodeURIComponent(fromKey).replaceAll('%2F', '/')}`,
          MetadataDirective: 'COPY',
        }),
      ),
    );
  }
}
