/**
 * Reading helpers shared by the history renderers of common/historyRecords.ts and
 * common/historyRequests.ts: attributes are untrusted JSON, so every read tolerates a missing
 * field or a wrong type (it reads as empty) and none throws.
 */

/** A string attribute, trimmed; anything else reads as ''. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** `value[key]` when `value` is an object, else undefined. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** `noun "name"`, or `a noun` when the name is missing. */
export function quoted(noun: string, name: string): string {
  return name ? `${noun} "${name}"` : `a ${noun}`;
}

/** The words of an event the renderer does not know: `performed <action> on a <entity>`. */
export function unknownWords(event: { entity_type: unknown; action: unknown }): string {
  const action = str(event.action).replace(/_/g, ' ') || 'unknown action';
  const entity = str(event.entity_type).replace(/_/g, ' ') || 'item';
  return `performed ${action} on a ${entity}`;
}
