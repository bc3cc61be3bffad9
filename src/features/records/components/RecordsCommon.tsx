/**
 * Pieces the records management pages share: a request's error (the server's message verbatim),
 * the list of folders, files and contacts a schedule or hold names, the folder chooser (the move
 * dialog's list picker over this feature's own folder levels) and the contact chooser.
 */
import { ContactsOutlined, FileOutlined, FolderOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Select, Spin } from 'antd';
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import type { RecordsTargetDto } from '@common/retention';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { ListPicker } from '@src/features/organise/components/FolderPickerDialog';
import type { PickerFolder } from '@src/features/organise/organiseSlice';
import { selectRecordsContacts, selectRecordsPicker } from '../recordsSelectors';
import { recordsActions, type Loaded } from '../recordsSlice';
import './records.css';

/** A request's error inside a dialog or page (nothing when null). */
export function RecordsError({ message }: { message: string | null | undefined }) {
  return message ? <Alert type="error" role="alert" showIcon title={message} /> : null;
}

const TARGET_ICONS = {
  folder: <FolderOutlined aria-hidden />,
  file: <FileOutlined aria-hidden />,
  contact: <ContactsOutlined aria-hidden />,
} as const;

const TARGET_WORDS = { folder: 'Folder', file: 'File', contact: 'Contact' } as const;

/**
 * A records section's list of cards (schedules, holds): the load error, "Loading…" while nothing
 * is shown yet, `emptyText` once loaded empty, and the cards (`card` gives each one, with its key).
 */
export function RecordsCards<T>({
  list,
  label,
  loadingText,
  emptyText,
  card,
}: {
  list: Loaded<T>;
  /** The accessible name of the list of cards. */
  label: string;
  loadingText: string;
  emptyText: string;
  card: (item: T) => ReactNode;
}) {
  return (
    <>
      {list.status === 'failed' ? <RecordsError message={list.error} /> : null}
      {list.status === 'loading' && list.items.length === 0 ? (
        <div role="status">
          <Spin description={loadingText} />
        </div>
      ) : null}
      {list.status === 'succeeded' && list.items.length === 0 ? (
        <Empty description={emptyText} />
      ) : null}
      {list.items.length > 0 ? (
        <ul className="records-cards" aria-label={label}>
          {list.items.map(card)}
        </ul>
      ) : null}
    </>
  );
}

/** How a target reads: "Clients (in Root / Firm)", or its id when it no longer exists. */
function targetText(target: RecordsTargetDto): string {
  if (target.missing) return `${TARGET_WORDS[target.type]} no longer exists`;
  return target.path ? `${target.name} (in ${target.path})` : target.name;
}

/** The folders, files and contacts a schedule or hold names; Remove when `onRemove` is given. */
export function TargetList({
  targets,
  label,
  onRemove,
  disabled = false,
}: {
  targets: RecordsTargetDto[];
  /** The list's accessible name ("Applies to", "Held"). */
  label: string;
  onRemove?: (target: RecordsTargetDto) => void;
  disabled?: boolean;
}) {
  if (targets.length === 0) return <p className="records-muted">{label}: nothing yet.</p>;
  return (
    <ul className="records-targets" aria-label={label}>
      {targets.map((target) => (
        <li key={target.id}>
          {TARGET_ICONS[target.type]}
          <span className="records-target-text">
            <span className="records-sr-only">{TARGET_WORDS[target.type]}: </span>
            {targetText(target)}
          </span>
          {onRemove ? (
            <Button
              size="small"
              type="link"
              disabled={disabled}
              aria-label={`Remove ${target.name || TARGET_WORDS[target.type]}`}
              onClick={() => onRemove(target)}
            >
              Remove
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The folder chooser: the move dialog's list picker (breadcrumbs, one folder's subfolders), the
 * folder shown being the one chosen. Its levels are read afresh each time it mounts.
 */
export function FolderChooser({ onChoose }: { onChoose: (folder: PickerFolder | null) => void }) {
  const dispatch = useAppDispatch();
  const levels = useAppSelector(selectRecordsPicker);
  const excluded = useMemo(() => new Set<string>(), []);
  useEffect(() => {
    dispatch(recordsActions.pickerOpened());
  }, [dispatch]);
  const onLevelNeeded = useCallback(
    (parentId: string) => dispatch(recordsActions.pickerLevelRequested({ parentId })),
    [dispatch],
  );
  return (
    <ListPicker
      levels={levels}
      excluded={excluded}
      onChoose={onChoose}
      onLevelNeeded={onLevelNeeded}
    />
  );
}

/** The contact chooser: a search of the firm's contacts; several may be chosen. */
export function ContactChooser({
  value,
  onChange,
}: {
  value: { id: string; name: string }[];
  onChange: (contacts: { id: string; name: string }[]) => void;
}) {
  const dispatch = useAppDispatch();
  const contacts = useAppSelector(selectRecordsContacts);
  let notFound: React.ReactNode = null;
  if (contacts.status === 'loading') notFound = <Spin size="small" />;
  else if (contacts.status === 'failed') notFound = contacts.error;
  else if (contacts.status === 'succeeded') notFound = 'No matching contacts.';
  const names = new Map(value.map((c) => [c.id, c.name]));
  for (const c of contacts.items) names.set(c.id, c.name);
  return (
    <Select<string[]>
      mode="multiple"
      showSearch
      aria-label="Contacts"
      placeholder="Type a contact’s name"
      value={value.map((c) => c.id)}
      searchValue={contacts.query}
      filterOption={false}
      loading={contacts.status === 'loading'}
      notFoundContent={notFound}
      onSearch={(text) => dispatch(recordsActions.contactQueryChanged(text))}
      onChange={(ids: string[]) => {
        onChange(ids.map((id) => ({ id, name: names.get(id) ?? id })));
        dispatch(recordsActions.contactQueryChanged(''));
      }}
      options={[
        ...value
          .filter((c) => !contacts.items.some((item) => item.id === c.id))
          .map((c) => ({ value: c.id, label: c.name })),
        ...contacts.items.map((c) => ({
          value: c.id,
          label: c.detail ? `${c.name} (${c.detail})` : c.name,
        })),
      ]}
      className="records-wide"
    />
  );
}
