/**
 * The words of records management's history events, for common/history.ts (which dispatches here
 * and owns the icons, labels and the user's name):
 * - retention_schedule create ("added"), update ("changed", or applied to / taken off an item),
 *   lock ("locked"), delete ("removed"): `schedule` (name, rule, selector, locked),
 *   `schedule_changes`, `target_added` / `target_removed`;
 * - legal_hold create ("placed"), update ("changed", or an item added / taken off), release
 *   ("released"): `hold` (name, matter, reason), `targets`, `hold_changes`, `target_added` /
 *   `target_removed`;
 * - file dispose ("disposed of"): the file's `name` and `disposition` (sha256, size, path,
 *   schedule, the day the retention ended, the approver).
 * Like the rest of the renderer every field is optional and a wrong type reads as missing.
 */
import { field, quoted, str, unknownWords } from './historyWords';
import { formatDay } from './retention';
import type { HistoryAttributes, HistoryEventDto } from './history';

/** What an event says: the text after the user's name, its context and its icon. */
export interface RecordsDescription {
  text: string;
  context: string;
  icon: 'add' | 'edit' | 'delete' | 'permission' | 'unlink' | 'info';
}

/** `folder "A"`, `file "b.pdf"`, `contact "C"` (or "an item"). */
function targetWords(target: unknown): string {
  const type = str(field(target, 'type'));
  const name = str(field(target, 'name'));
  if (type === 'folder' || type === 'file' || type === 'contact') return quoted(type, name);
  return name ? `"${name}"` : 'an item';
}

/** `name "A" → "B"; period 5 years → 6 years` for the changed fields of an update. */
function changesWords(changes: unknown, keys: readonly string[]): string {
  return keys
    .map((key) => {
      const change = field(changes, key);
      if (change === undefined) return '';
      const prev = str(field(change, 'prev'));
      const next = str(field(change, 'next'));
      const show = (text: string) => (key === 'period' ? text || 'none' : `"${text}"`);
      return `${key} ${show(prev)} → ${show(next)}`;
    })
    .filter(Boolean)
    .join('; ');
}

function describeSchedule(event: HistoryEventDto, attrs: HistoryAttributes): RecordsDescription {
  const schedule = quoted('retention schedule', str(field(attrs.schedule, 'name')));
  const rule = str(field(attrs.schedule, 'rule'));
  const selector = str(field(attrs.schedule, 'selector'));
  const ruleContext = [rule, selector && `for files where ${selector}`].filter(Boolean).join(', ');
  switch (event.action) {
    case 'create':
      return {
        text: `added ${schedule}`,
        context: [ruleContext, field(attrs.schedule, 'locked') === true ? 'locked' : '']
          .filter(Boolean)
          .join(', '),
        icon: 'add',
      };
    case 'update':
      if (attrs.target_added !== undefined) {
        return {
          text: `applied ${schedule} to ${targetWords(attrs.target_added)}`,
          context: rule,
          icon: 'edit',
        };
      }
      if (attrs.target_removed !== undefined) {
        return {
          text: `took ${schedule} off ${targetWords(attrs.target_removed)}`,
          context: rule,
          icon: 'edit',
        };
      }
      return {
        text: `changed ${schedule}`,
        context: changesWords(attrs.schedule_changes, ['name', 'period', 'basis', 'selector']),
        icon: 'edit',
      };
    case 'lock':
      return { text: `locked ${schedule}`, context: ruleContext, icon: 'permission' };
    case 'delete':
      return { text: `removed ${schedule}`, context: ruleContext, icon: 'delete' };
    default:
      return unknown(event);
  }
}

function describeHold(event: HistoryEventDto, attrs: HistoryAttributes): RecordsDescription {
  const hold = quoted('legal hold', str(field(attrs.hold, 'name')));
  const matter = str(field(attrs.hold, 'matter'));
  const matterContext = matter ? `matter "${matter}"` : '';
  switch (event.action) {
    case 'create': {
      const targets = Array.isArray(attrs.targets) ? (attrs.targets as unknown[]) : [];
      const on =
        targets.length === 1
          ? ` on ${targetWords(targets[0])}`
          : targets.length > 1
            ? ` on ${targets.length} items`
            : '';
      return { text: `placed ${hold}${on}`, context: matterContext, icon: 'permission' };
    }
    case 'update':
      if (attrs.target_added !== undefined) {
        return {
          text: `added ${targetWords(attrs.target_added)} to ${hold}`,
          context: matterContext,
          icon: 'edit',
        };
      }
      if (attrs.target_removed !== undefined) {
        return {
          text: `took ${targetWords(attrs.target_removed)} off ${hold}`,
          context: matterContext,
          icon: 'edit',
        };
      }
      return {
        text: `changed ${hold}`,
        context: changesWords(attrs.hold_changes, ['name', 'matter', 'reason']),
        icon: 'edit',
      };
    case 'release':
      return { text: `released ${hold}`, context: matterContext, icon: 'unlink' };
    default:
      return unknown(event);
  }
}

/**
 * The words of a file's disposal: `disposed of file "a.pdf"`, in the context of the schedule that
 * ended, when, and the first 12 characters of the deleted bytes' sha256.
 */
export function describeDisposal(attrs: HistoryAttributes): RecordsDescription {
  const name = str(attrs.name) || str(attrs.file_name);
  const disposition = attrs.disposition;
  const schedule = str(field(field(disposition, 'schedule'), 'name'));
  const ended = formatDay(str(field(disposition, 'ended_on')));
  const sha256 = str(field(disposition, 'sha256'));
  const context = [
    schedule ? `retention schedule "${schedule}"${ended ? ` ended ${ended}` : ''}` : '',
    sha256 ? `sha256 ${sha256.slice(0, 12)}…` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return { text: `disposed of ${quoted('file', name)}`, context, icon: 'delete' };
}

function unknown(event: { entity_type: unknown; action: unknown }): RecordsDescription {
  return { text: unknownWords(event), context: '', icon: 'info' };
}

/** The words of a retention_schedule or legal_hold event (never throws). */
export function describeRecordsEvent(
  event: HistoryEventDto,
  attrs: HistoryAttributes,
): RecordsDescription {
  return event.entity_type === 'legal_hold'
    ? describeHold(event, attrs)
    : describeSchedule(event, attrs);
}
