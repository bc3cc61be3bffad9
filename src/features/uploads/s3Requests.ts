/**
 * The @uppy/aws-s3 (6, companion-less) side the app's uploader (uppyClient.ts) and the request
 * link page's (requestUppy.ts) share: how the plugin is installed, and what each request it asks
 * `signRequest` for means. The object key the plugin proposes is the Uppy file id
 * ({@link s3PluginOptions}), so the first request of a file names the file: `{ method: 'PUT', key
 * }` asks for a single PUT of the whole file, `{ method: 'POST', key }` for the creation of a
 * multipart upload; every later request carries the server's `uploadId` and object key.
 */
import type { AwsS3Options } from '@uppy/aws-s3';
import type { Body, Meta, UppyFile } from '@uppy/core';
import { usesMultipart, type UploadRestrictions } from '@common/uploads';

/** The `signRequest` callback of @uppy/aws-s3. */
export type SignRequestFn = Extract<
  AwsS3Options<Meta, Body>,
  { signRequest: unknown }
>['signRequest'];
/** One request @uppy/aws-s3 asks `signRequest` to sign. */
export type PresignableRequest = Parameters<SignRequestFn>[0];
/** What `signRequest` answers: the signed URL, its headers, and the object key to use. */
export type PresignedResponse = Awaited<ReturnType<SignRequestFn>>;

/** The first request of a file, keyed by its Uppy file id: a single PUT, or a multipart creation. */
export type FirstStep =
  { kind: 'put'; fileId: string } | { kind: 'create-multipart'; fileId: string };
/** A later request of a multipart upload: a part's upload, the part listing, completion, abort. */
export type MultipartStep =
  | { kind: 'part'; uploadId: string; key: string; partNumber: number }
  | { kind: 'list-parts'; uploadId: string; key: string }
  | { kind: 'complete'; uploadId: string; key: string }
  | { kind: 'abort'; uploadId: string; key: string };
/** What a request of @uppy/aws-s3 asks for. */
export type S3Step = FirstStep | MultipartStep;

/**
 * Tells what a request of @uppy/aws-s3 asks for. Without an upload id: PUT is a single PUT and
 * POST a multipart creation of the file `key`. With one: PUT with a part number is a part, GET the
 * part listing, POST the completion, anything else (DELETE) the abort.
 * @throws Error "Unexpected {method} request without an upload." for any other request without
 *   an upload id (a DELETE of an object: the uploaders never ask for one)
 */
export function s3StepOf(request: PresignableRequest): S3Step {
  if (!('uploadId' in request)) {
    if (request.method === 'PUT') return { kind: 'put', fileId: request.key };
    if (request.method === 'POST') return { kind: 'create-multipart', fileId: request.key };
    throw new Error(`Unexpected ${request.method} request without an upload.`);
  }
  const { uploadId, key } = request;
  if (request.method === 'PUT' && 'partNumber' in request) {
    return { kind: 'part', uploadId, key, partNumber: request.partNumber };
  }
  if (request.method === 'GET') return { kind: 'list-parts', uploadId, key };
  if (request.method === 'POST') return { kind: 'complete', uploadId, key };
  return { kind: 'abort', uploadId, key };
}

/**
 * The answer to `signRequest` for a request the server signed: its URL made absolute against
 * `base` (the server may answer a path of its own origin), the headers it was signed with, and
 * for a multipart creation the server's object key, which @uppy/aws-s3 uses from then on.
 * @param base the address relative URLs are resolved against; the page's by default
 */
export function signedAnswer(
  signed: { url: string; headers: Record<string, string> },
  key?: string,
  base: string = window.location.href,
): PresignedResponse {
  const url = new URL(signed.url, base).toString();
  return key === undefined
    ? { url, headers: signed.headers }
    : { url, key, headers: signed.headers };
}

/**
 * The options both uploaders install @uppy/aws-s3 with: multipart strictly above the
 * restrictions' `multipart_threshold` (usesMultipart), parts of `part_size` bytes, the Uppy file id
 * as the proposed object key (what {@link s3StepOf}'s first steps rely on), and `signRequest`.
 * @param restrictions the restrictions in force, read at each call (the uploader's configure may
 *   change them)
 */
export function s3PluginOptions<M extends Meta, B extends Body>(
  restrictions: () => UploadRestrictions,
  signRequest: SignRequestFn,
) {
  return {
    shouldUseMultipart: (file: UppyFile<M, B>) => usesMultipart(file.size ?? 0, restrictions()),
    getChunkSize: () => restrictions().part_size,
    generateObjectKey: (file: UppyFile<M, B>) => file.id,
    signRequest,
  };
}
