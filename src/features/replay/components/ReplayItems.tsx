/**
 * The Replay page's read-only list: the items of one level of the replayed subtree as they were
 * (folders first, then by name), with the viewer's favourite star and folder colour, "In archive"
 * and "Deleted since" tags, and the current timeline entry's changes as highlighted tags. A
 * folder's name opens that level; a file's name (and a folder's details button) selects the item
 * for the details panel.
 */
import { InfoCircleOutlined, StarFilled } from '@ant-design/icons';
import { Button, Empty, Tag } from 'antd';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { fileKind } from '@common/files';
import { formatSize } from '@common/format';
import type { ReplayChange, ReplayItem } from '@common/replay';
import { REPLAY_CHANGE_LABELS } from '@common/replayViews';
import { EntityIcon } from '@src/components/EntityIcon';
import { VirtualList } from '@src/components/VirtualList';
import { DELETED_SINCE_LABEL, EMPTY_LEVEL_TEXT, formatMoment } from '../replayTexts';

/** The state tag of an archived item (the change tag says "Archived"). */
export const IN_ARCHIVE_LABEL = 'In archive';

/** The extension of a file name ('' without one). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

/** Props of {@link ReplayItems}. */
export interface ReplayItemsProps {
  items: readonly ReplayItem[];
  /** The user whose favourites and colours are shown. */
  viewerId: string;
  /** What the current entry changed, by item id. */
  changes: ReadonlyMap<string, ReplayChange[]>;
  /** Items destroyed since (id → ISO time). */
  destroyedSince: Readonly<Record<string, string>>;
  selectedId: string | null;
  /** The address of a folder's level. */
  levelHref: (folderId: string) => string;
  onSelect: (id: string) => void;
}

/** One row. */
function ReplayRow({
  item,
  viewerId,
  changes,
  destroyedAt,
  selected,
  levelHref,
  onSelect,
}: {
  item: ReplayItem;
  viewerId: string;
  changes: readonly ReplayChange[];
  destroyedAt: string | undefined;
  selected: boolean;
  levelHref: (folderId: string) => string;
  onSelect: (id: string) => void;
}) {
  const folder = item.type === 'folder';
  const kind = fileKind({ type: item.type, extension: folder ? null : extensionOf(item.name) });
  const className = [
    'replay-row',
    changes.length > 0 ? 'replay-row-changed' : '',
    selected ? 'replay-row-selected' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      role="listitem"
      className={className}
      data-testid="replay-row"
      data-changed={changes.length > 0 ? 'true' : undefined}
    >
      <EntityIcon kind={kind} color={folder ? (item.colors[viewerId] ?? null) : null} />
      <div className="replay-row-text">
        {folder ? (
          <Link className="replay-row-name" to={levelHref(item.id)}>
            {item.name}
          </Link>
        ) : (
          <button
            type="button"
            className="replay-row-name replay-row-button"
            aria-pressed={selected}
            onClick={() => onSelect(item.id)}
          >
            {item.name}
          </button>
        )}
        {item.favorites.includes(viewerId) ? (
          <StarFilled className="replay-row-star" role="img" aria-label="Favorite" />
        ) : null}
        <span className="replay-row-tags">
          {item.archivedRootId !== null ? <Tag>{IN_ARCHIVE_LABEL}</Tag> : null}
          {destroyedAt !== undefined ? (
            <Tag color="red" title={formatMoment(destroyedAt)}>
              {DELETED_SINCE_LABEL}
            </Tag>
          ) : null}
          {changes.map((change) => (
            <Tag key={change} className="replay-change-tag" data-change={change}>
              {REPLAY_CHANGE_LABELS[change]}
            </Tag>
          ))}
        </span>
      </div>
      <span className="replay-row-meta">
        {!folder && item.version
          ? `v${item.version.number}${item.version.size === null ? '' : ` · ${formatSize(item.version.size)}`}`
          : null}
      </span>
      {folder ? (
        <Button
          type="text"
          size="small"
          icon={<InfoCircleOutlined aria-hidden />}
          aria-label={`Details of ${item.name}`}
          aria-pressed={selected}
          onClick={() => onSelect(item.id)}
        />
      ) : (
        <span />
      )}
    </div>
  );
}

const itemKey = (item: ReplayItem) => item.id;
const NO_CHANGES: ReplayChange[] = [];

/** The list, virtualised, or an empty state. */
export function ReplayItems({
  items,
  viewerId,
  changes,
  destroyedSince,
  selectedId,
  levelHref,
  onSelect,
}: ReplayItemsProps) {
  const renderItem = useCallback(
    (item: ReplayItem) => (
      <ReplayRow
        item={item}
        viewerId={viewerId}
        changes={changes.get(item.id) ?? NO_CHANGES}
        destroyedAt={destroyedSince[item.id]}
        selected={item.id === selectedId}
        levelHref={levelHref}
        onSelect={onSelect}
      />
    ),
    [viewerId, changes, destroyedSince, selectedId, levelHref, onSelect],
  );
  if (items.length === 0) {
    return (
      <Empty
        className="replay-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={EMPTY_LEVEL_TEXT}
      />
    );
  }
  return (
    <div className="replay-list">
      <VirtualList
        items={items}
        itemKey={itemKey}
        renderItem={renderItem}
        role="list"
        ariaLabel="Items as they were"
      />
    </div>
  );
}
