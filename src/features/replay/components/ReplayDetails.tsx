/**
 * The Replay page's details panel: the selected item as it was (name, type, archived, the
 * viewer's favourite, index values, contacts, shares, permissions, a file's version, and when it
 * was made and last changed), read-only.
 */
import { Empty } from 'antd';
import type { ReactNode } from 'react';
import { formatSize } from '@common/format';
import type { ReplayItem } from '@common/replay';
import { DELETED_SINCE_LABEL, NO_SELECTION_TEXT, formatMoment } from '../replayTexts';

/** Props of {@link ReplayDetails}. */
export interface ReplayDetailsProps {
  /** The item shown, or null (then a hint). */
  item: ReplayItem | null;
  viewerId: string;
  /** When it was destroyed, if it was after the moment. */
  destroyedSince: string | undefined;
}

/** A list of values, or "None". */
function Values({ values }: { values: ReactNode[] }) {
  if (values.length === 0) return <span className="replay-details-none">None</span>;
  return (
    <ul className="replay-details-values">
      {values.map((value, index) => (
        <li key={index}>{value}</li>
      ))}
    </ul>
  );
}

/** The panel. */
export function ReplayDetails({ item, viewerId, destroyedSince }: ReplayDetailsProps) {
  if (!item) {
    return (
      <section className="replay-details" aria-label="Details">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_SELECTION_TEXT} />
      </section>
    );
  }
  const rows: [string, ReactNode][] = [
    ['Name', item.name],
    ['Type', item.type === 'folder' ? 'Folder' : 'File'],
    ['Archived', item.archivedRootId !== null ? 'Yes' : 'No'],
    ['Favorite', item.favorites.includes(viewerId) ? 'Yes' : 'No'],
  ];
  if (item.type === 'file') {
    rows.push([
      'Version',
      item.version
        ? `Version ${item.version.number}${item.version.size === null ? '' : ` · ${formatSize(item.version.size)}`}`
        : 'Unknown',
    ]);
  }
  rows.push(
    [
      'Index values',
      <Values
        key="indexes"
        values={item.indexes.map(
          (index) => `${index.name}: ${index.value}${index.archived ? ' (archived)' : ''}`,
        )}
      />,
    ],
    ['Contacts', <Values key="contacts" values={item.contacts.map((contact) => contact.name)} />],
    [
      'Shares',
      <Values
        key="shares"
        values={item.shares.map((share) =>
          share.kind === 'link'
            ? `Share link${share.email ? ` to ${share.email}` : ''}`
            : `Guest${share.email ? ` ${share.email}` : ''}`,
        )}
      />,
    ],
  );
  if (item.type === 'folder') {
    rows.push([
      'Permissions',
      <Values
        key="permissions"
        values={item.permissions.map((p) => p.name ?? `${p.type} ${p.id}`)}
      />,
    ]);
  }
  rows.push(
    ['Created', formatMoment(item.createdAt)],
    ['Last changed', formatMoment(item.updatedAt)],
  );
  if (destroyedSince !== undefined) rows.push([DELETED_SINCE_LABEL, formatMoment(destroyedSince)]);
  return (
    <section className="replay-details" aria-label="Details">
      <h2 className="replay-section-title">{item.name}</h2>
      <dl className="replay-details-list">
        {rows.map(([term, value]) => (
          <div key={term} className="replay-details-row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
