/**
 * Pure helpers of the advisor's request screens: the checklist being written (items with stable
 * keys for the editor), what it becomes on the wire, the client-side checks with the messages of
 * REQUEST_MESSAGES (the server checks again), and the texts of a request's progress.
 */
import { isValidEmail } from '@common/email';
import {
  REQUEST_MAX_ITEMS,
  REQUEST_MAX_RECIPIENTS,
  REQUEST_MESSAGES,
  type RequestItemInput,
  type RequestItemState,
} from '@common/documentRequests';

/** One index value of an item being written: the field chosen (or none yet) and its value. */
export interface DraftIndexValue {
  key: string;
  fieldId: string | null;
  value: string;
}

/** One item of the checklist being written. */
export interface DraftItem {
  key: string;
  name: string;
  description: string;
  indexValues: DraftIndexValue[];
}

/** Shown when an index value row lacks its field or its value. */
export const INDEX_VALUE_INCOMPLETE = 'Choose an index field and a value, or remove the row.';

let nextKey = 0;
/** A key no other draft row has (the editor's React keys and labels). */
export function draftKey(): string {
  nextKey += 1;
  return `d${nextKey}`;
}

/** A draft item, empty or from a template's item. */
export function draftItem(item?: RequestItemInput): DraftItem {
  return {
    key: draftKey(),
    name: item?.name ?? '',
    description: item?.description ?? '',
    indexValues: (item?.index_values ?? []).map((v) => ({
      key: draftKey(),
      fieldId: v.index_field_id,
      value: v.value,
    })),
  };
}

/** A draft index value row with no field chosen yet. */
export function draftIndexValue(): DraftIndexValue {
  return { key: draftKey(), fieldId: null, value: '' };
}

/** The checklist of a template (or of nothing: one empty item) as draft items. */
export function draftFromItems(items: readonly RequestItemInput[]): DraftItem[] {
  return items.map((item) => draftItem(item));
}

/** The draft items as the wire wants them: trimmed, empty descriptions and values left out. */
export function itemsFromDraft(items: readonly DraftItem[]): RequestItemInput[] {
  return items.map((item) => {
    const out: RequestItemInput = { name: item.name.trim() };
    const description = item.description.trim();
    if (description) out.description = description;
    const values = item.indexValues
      .filter((v) => v.fieldId !== null && v.value.trim() !== '')
      .map((v) => ({ index_field_id: v.fieldId as string, value: v.value.trim() }));
    if (values.length > 0) out.index_values = values;
    return out;
  });
}

/** What is wrong with the checklist (REQUEST_MESSAGES), or null. */
export function checklistProblem(items: readonly DraftItem[]): string | null {
  if (items.length === 0) return REQUEST_MESSAGES.noItems;
  if (items.length > REQUEST_MAX_ITEMS) return REQUEST_MESSAGES.tooManyItems;
  if (items.some((item) => item.name.trim() === '')) return REQUEST_MESSAGES.itemNameRequired;
  const incomplete = items.some((item) =>
    item.indexValues.some((v) => (v.fieldId === null) !== (v.value.trim() === '')),
  );
  return incomplete ? INDEX_VALUE_INCOMPLETE : null;
}

/** What is wrong with the recipients (REQUEST_MESSAGES), or null. */
export function recipientsProblem(emails: readonly string[]): string | null {
  if (emails.length === 0) return REQUEST_MESSAGES.noRecipients;
  if (emails.length > REQUEST_MAX_RECIPIENTS) return REQUEST_MESSAGES.tooManyRecipients;
  if (emails.some((email) => !isValidEmail(email))) return REQUEST_MESSAGES.invalidEmail;
  return null;
}

/** Whether `day` (`YYYY-MM-DD`) is `today` or later (both local calendar days). */
export function dueDateAllowed(day: string, today: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && day >= today;
}

/** `items` with the one at `index` moved by `delta` places (unchanged at either end). */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) {
    return [...items];
  }
  const next = [...items];
  const [moved] = next.splice(index, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/** The default title of a request for a folder. */
export function defaultRequestTitle(folderName: string): string {
  return `Documents for ${folderName}`;
}

/** A request's progress: "2 of 5 accepted". */
export function progressText(counts: Record<RequestItemState, number>): string {
  const total = counts.missing + counts.received + counts.accepted + counts.rejected;
  return `${counts.accepted} of ${total} accepted`;
}

/** The other states of a request's items with a count: "1 missing · 2 received", or ''. */
export function progressDetail(counts: Record<RequestItemState, number>): string {
  const parts: string[] = [];
  if (counts.missing) parts.push(`${counts.missing} missing`);
  if (counts.received) parts.push(`${counts.received} received`);
  if (counts.rejected) parts.push(`${counts.rejected} rejected`);
  return parts.join(' · ');
}
