/**
 * The local object store's wire protocol, as the routes speak it (server/routes/storage.ts): the
 * S3-compatible XML answers of multipart uploads (InitiateMultipartUploadResult, ListPartsResult,
 * CompleteMultipartUploadResult) and the parsing of a CompleteMultipartUpload body, so that
 * `@uppy/aws-s3` in the browser talks to the local store exactly as it talks to S3.
 */
import { StoreRefused, type StoredPart } from '../storage/localObjectStore';

/** Largest complete-request body (10000 parts of about 100 bytes of XML each). */
export const MAX_COMPLETE_BODY_BYTES = 2 * 1024 * 1024;

/** Escapes text for an XML element. */
function xmlText(value: string | number): string {
  return String(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Parses the body of an S3 CompleteMultipartUpload request:
 * `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>…</ETag></Part>…`.
 * ETags may be quoted ("…" or &quot;…&quot;).
 * @returns the parts in the order given
 * @throws StoreRefused('malformed_xml') when a part lacks its number or ETag
 */
export function parseCompleteRequest(xml: string): { partNumber: number; etag: string }[] {
  const parts: { partNumber: number; etag: string }[] = [];
  for (const match of xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
    const inner = match[1] ?? '';
    const number = /<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(inner)?.[1];
    const etag = /<ETag>([^<]*)<\/ETag>/.exec(inner)?.[1];
    if (number === undefined || etag === undefined) throw new StoreRefused('malformed_xml');
    parts.push({
      partNumber: Number(number),
      etag: etag.replace(/^(&quot;|&#34;|")+|(&quot;|&#34;|")+$/g, '').trim(),
    });
  }
  if (parts.length === 0) throw new StoreRefused('malformed_xml');
  return parts;
}

/** The XML answer of a created multipart upload (S3 InitiateMultipartUploadResult). */
export function initiateResultXml(key: string, uploadId: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<InitiateMultipartUploadResult>' +
    `<Bucket>local</Bucket><Key>${xmlText(key)}</Key><UploadId>${xmlText(uploadId)}</UploadId>` +
    '</InitiateMultipartUploadResult>'
  );
}

/** The XML answer of a part listing (S3 ListPartsResult). */
export function listPartsXml(key: string, uploadId: string, parts: StoredPart[]): string {
  const items = parts
    .map(
      (p) =>
        `<Part><PartNumber>${p.partNumber}</PartNumber>` +
        `<LastModified>${new Date(p.lastModified).toISOString()}</LastModified>` +
        `<ETag>${p.etag}</ETag><Size>${p.size}</Size></Part>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>local</Bucket>' +
    `<Key>${xmlText(key)}</Key><UploadId>${xmlText(uploadId)}</UploadId>` +
    `<IsTruncated>false</IsTruncated>${items}</ListPartsResult>`
  );
}

/** The XML answer of a completed upload (S3 CompleteMultipartUploadResult). */
export function completeResultXml(location: string, key: string, etag: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUploadResult>' +
    `<Location>${xmlText(location)}</Location><Bucket>local</Bucket>` +
    `<Key>${xmlText(key)}</Key><ETag>${xmlText(etag)}</ETag></CompleteMultipartUploadResult>`
  );
}
