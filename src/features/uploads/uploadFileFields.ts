/**
 * What both uploaders (uppyClient.ts and the request link page's requestUppy.ts) tell Uppy and
 * the server about a picked file: the descriptor Uppy's `addFile` takes, and the file fields of a
 * create-upload body (SPEC section 3: "Upload metadata: extension and folderId").
 */
import { contentTypeFor } from '@common/files';
import { splitFileName } from '@common/names';

/**
 * The descriptor of a local file for Uppy's `addFile`: its name and bytes as picked, and its type
 * as the browser gave it, else the one its extension stands for (contentTypeFor).
 * @param meta the uploader's meta for the file
 */
export function localUppyFile<M>(file: File, meta: M) {
  const { extension } = splitFileName(file.name);
  return {
    name: file.name,
    type: file.type || contentTypeFor(extension),
    data: file,
    source: 'Local',
    isRemote: false as const,
    meta,
  };
}

/**
 * The file fields of a create-upload body (single or multipart, the app's or a request link's):
 * the name trimmed, its lowercased extension (splitFileName), the content type the extension
 * stands for, and the size in bytes (0 when Uppy does not know it).
 */
export function createUploadFields(file: { name: string; size: number | null }): {
  name: string;
  extension: string;
  content_type: string;
  size: number;
} {
  const name = file.name.trim();
  const { extension } = splitFileName(name);
  return { name, extension, content_type: contentTypeFor(extension), size: file.size ?? 0 };
}
