/**
 * The id of an upload batch (one pick of files), sent with create-upload as `batch_id` together
 * with the file's Uppy id as `client_key` (SPEC section 5: one batch holds one file per name; a
 * file of the batch created again gets its earlier upload back). The server takes it as opaque
 * text of 1 to 64 characters.
 */

/**
 * A new batch id: a random UUID, Web Crypto's where there is one (secure contexts), else one made
 * of Math.random in the same 36-character form.
 * @param randomUUID the UUID source; Web Crypto's by default, null or undefined for the fallback
 */
export function newBatchId(
  randomUUID: (() => string) | null | undefined = globalThis.crypto?.randomUUID?.bind(
    globalThis.crypto,
  ),
): string {
  if (randomUUID) return randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16));
  return `${hex.slice(0, 8).join('')}-${hex.slice(8, 12).join('')}-4${hex.slice(13, 16).join('')}-a${hex.slice(17, 20).join('')}-${hex.slice(20).join('')}`;
}
