/**
 * /admin/legal-holds: the firm's legal holds, active first — each one's name, reason, matter,
 * what it holds (folders with everything below them, files, a contact's linked folders), who
 * placed it and when, and its release — with placing a hold (name, reason, matter, folders
 * chosen in the folder chooser, contacts found by a search), editing an active one (its name,
 * reason and matter; holding more folders or contacts; no longer holding one of its targets) and
 * releasing one after a confirmation. Files are put on a hold from their side panel. A held item
 * cannot be deleted permanently, moved out of the hold's scope or (a contact) unlinked until the
 * hold is released.
 */
import { PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Space, Tag } from 'antd';
import { useEffect, useId, useState } from 'react';
import {
  formatDay,
  HOLD_REASON_MAX_LENGTH,
  RECORDS_NAME_MAX_LENGTH,
  RECORDS_MESSAGES,
  type LegalHoldDto,
  type RecordsTargetDto,
  type RecordsTargetRequest,
} from '@common/retention';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { PickerFolder } from '@src/features/organise/organiseSlice';
import { selectHolds, selectRecordsChange } from '../recordsSelectors';
import { recordsActions } from '../recordsSlice';
import {
  ContactChooser,
  FolderChooser,
  RecordsCards,
  RecordsError,
  TargetList,
} from './RecordsCommon';

/** The section's path below /admin and its tab label. */
export const HOLDS_SECTION = { path: 'legal-holds', label: 'Legal holds' } as const;

/** Shown when the firm has no hold. */
const NO_HOLDS_TEXT =
  'No legal holds. A hold keeps folders and files from being deleted until it is released.';

/** Title of the release confirmation. */
function releaseConfirmTitle(name: string): string {
  return `Release “${name}”?`;
}

/** Title of the confirmation before a hold stops holding one of its targets. */
function stopHoldingTitle(target: RecordsTargetDto): string {
  return `Stop holding “${target.name || 'this item'}”?`;
}

/** Body of that confirmation. */
export const STOP_HOLDING_TEXT =
  'It can then be deleted again, unless another hold or a retention schedule keeps it. History records the change.';

/** Body of the release confirmation. */
const RELEASE_CONFIRM_TEXT =
  'What it holds can then be deleted again, unless another hold or a retention schedule keeps it. A released hold cannot be placed again.';

/** "Jan 5, 2026 by Ada" (the day of an ISO time, and who). */
function byOn(at: string | null, by: string | null): string {
  if (!at) return '';
  const day = formatDay(at.slice(0, 10));
  return by ? `${day} by ${by}` : day;
}

/** A hold's name, reason and matter fields (the place and edit forms). */
function HoldFields({
  ids,
  values,
  onName,
  onReason,
  onMatter,
}: {
  ids: { name: string; reason: string; matter: string };
  values: { name: string; reason: string; matter: string };
  onName: (name: string) => void;
  onReason: (reason: string) => void;
  onMatter: (matter: string) => void;
}) {
  return (
    <>
      <div className="records-field">
        <label htmlFor={ids.name}>Name</label>
        <Input
          id={ids.name}
          value={values.name}
          maxLength={RECORDS_NAME_MAX_LENGTH}
          onChange={(event) => onName(event.target.value)}
        />
      </div>
      <div className="records-field">
        <label htmlFor={ids.reason}>Reason</label>
        <Input.TextArea
          id={ids.reason}
          value={values.reason}
          maxLength={HOLD_REASON_MAX_LENGTH}
          autoSize={{ minRows: 2, maxRows: 5 }}
          onChange={(event) => onReason(event.target.value)}
        />
      </div>
      <div className="records-field">
        <label htmlFor={ids.matter}>Matter</label>
        <Input
          id={ids.matter}
          value={values.matter}
          maxLength={RECORDS_NAME_MAX_LENGTH}
          onChange={(event) => onMatter(event.target.value)}
        />
      </div>
    </>
  );
}

/** The form of a new hold. */
function PlaceHoldDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectRecordsChange);
  const [name, setName] = useState('');
  const [reason, setReason] = useState('');
  const [matter, setMatter] = useState('');
  const [shown, setShown] = useState<PickerFolder | null>(null);
  const [folders, setFolders] = useState<PickerFolder[]>([]);
  const [contacts, setContacts] = useState<{ id: string; name: string }[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { name: useId(), reason: useId(), matter: useId(), folders: useId() };

  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setProblem(RECORDS_MESSAGES.nameRequired);
    const targets: RecordsTargetRequest[] = [
      ...folders.map((f) => ({ type: 'folder' as const, id: f.id })),
      ...contacts.map((c) => ({ type: 'contact' as const, id: c.id })),
    ];
    if (targets.length === 0) return setProblem(RECORDS_MESSAGES.holdTargetsRequired);
    setProblem(null);
    dispatch(
      recordsActions.holdPlaceRequested({
        name: trimmed,
        reason: reason.trim(),
        matter: matter.trim(),
        targets,
      }),
    );
  };

  return (
    <Modal
      open
      title="Place a legal hold"
      okText="Place hold"
      cancelText="Cancel"
      confirmLoading={change.status === 'loading'}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="records-form">
        <HoldFields
          ids={ids}
          values={{ name, reason, matter }}
          onName={setName}
          onReason={setReason}
          onMatter={setMatter}
        />
        <fieldset className="records-fieldset">
          <legend id={ids.folders}>Folders (with everything in them)</legend>
          <FolderChooser onChoose={setShown} />
          <Button
            disabled={!shown || folders.some((f) => f.id === shown.id)}
            onClick={() => {
              if (shown) setFolders([...folders, shown]);
            }}
          >
            {shown ? `Hold “${shown.name}”` : 'Hold this folder'}
          </Button>
          {folders.length > 0 ? (
            <ul className="records-targets" aria-label="Folders to hold">
              {folders.map((folder) => (
                <li key={folder.id}>
                  <span className="records-target-text">{folder.name}</span>
                  <Button
                    size="small"
                    type="link"
                    aria-label={`Do not hold ${folder.name}`}
                    onClick={() => setFolders(folders.filter((f) => f.id !== folder.id))}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        <div className="records-field">
          <span>Contacts (the folders linked to them)</span>
          <ContactChooser value={contacts} onChange={setContacts} />
        </div>
        <RecordsError message={problem ?? (change.status === 'failed' ? change.error : null)} />
      </div>
    </Modal>
  );
}

/**
 * The form of an active hold: its name, reason and matter (Save), and what it holds: Remove on a
 * target (after a confirmation), a folder chosen in the folder chooser or a contact found by a
 * search added at once. The server's refusal (a hold keeps at least one target) shows as it comes.
 */
function EditHoldDialog({ hold, onClose }: { hold: LegalHoldDto; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const change = useAppSelector(selectRecordsChange);
  const [name, setName] = useState(hold.name);
  const [reason, setReason] = useState(hold.reason);
  const [matter, setMatter] = useState(hold.matter);
  const [shown, setShown] = useState<PickerFolder | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { name: useId(), reason: useId(), matter: useId(), folders: useId() };
  const busy = change.status === 'loading';
  const held = new Set(hold.targets.map((target) => target.item_id));

  const save = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setProblem(RECORDS_MESSAGES.nameRequired);
    setProblem(null);
    dispatch(
      recordsActions.holdUpdateRequested({
        id: hold.id,
        changes: { name: trimmed, reason: reason.trim(), matter: matter.trim() },
      }),
    );
  };
  const add = (target: RecordsTargetRequest) => {
    setProblem(null);
    dispatch(recordsActions.holdTargetAddRequested({ id: hold.id, target }));
  };

  return (
    <Modal
      open
      title={`Edit “${hold.name}”`}
      okText="Save"
      cancelText="Close"
      confirmLoading={busy && change.kind === 'holdUpdate'}
      onOk={save}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="records-form">
        <HoldFields
          ids={ids}
          values={{ name, reason, matter }}
          onName={setName}
          onReason={setReason}
          onMatter={setMatter}
        />
        <TargetList
          label={`${hold.name} holds`}
          targets={hold.targets}
          disabled={busy}
          onRemove={(target) => {
            void modal.confirm({
              title: stopHoldingTitle(target),
              content: STOP_HOLDING_TEXT,
              okText: 'Stop holding',
              cancelText: 'Cancel',
              onOk: () => {
                setProblem(null);
                dispatch(
                  recordsActions.holdTargetRemoveRequested({ id: hold.id, targetId: target.id }),
                );
              },
            });
          }}
        />
        <fieldset className="records-fieldset">
          <legend id={ids.folders}>Hold another folder (with everything in it)</legend>
          <FolderChooser onChoose={setShown} />
          <Button
            disabled={busy || !shown || held.has(shown.id)}
            onClick={() => {
              if (shown) add({ type: 'folder', id: shown.id });
            }}
          >
            {shown ? `Hold “${shown.name}”` : 'Hold this folder'}
          </Button>
        </fieldset>
        <div className="records-field">
          <span>Hold a contact’s folders</span>
          <ContactChooser
            value={[]}
            onChange={(chosen) => {
              for (const contact of chosen) {
                if (!held.has(contact.id)) add({ type: 'contact', id: contact.id });
              }
            }}
          />
        </div>
        <RecordsError message={problem ?? (change.status === 'failed' ? change.error : null)} />
      </div>
    </Modal>
  );
}

/** One hold's card; Edit and Release while it is active. */
function HoldCard({
  hold,
  busy,
  onEdit,
}: {
  hold: LegalHoldDto;
  busy: boolean;
  onEdit: (hold: LegalHoldDto) => void;
}) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const headingId = useId();
  const active = hold.status === 'active';
  return (
    <li className="records-card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {hold.name}{' '}
        {active ? (
          <Tag icon={<SafetyCertificateOutlined aria-hidden />} color="red">
            Active
          </Tag>
        ) : (
          <Tag>Released</Tag>
        )}
      </h3>
      <dl className="records-facts">
        {hold.matter ? (
          <>
            <dt>Matter</dt>
            <dd>{hold.matter}</dd>
          </>
        ) : null}
        {hold.reason ? (
          <>
            <dt>Reason</dt>
            <dd>{hold.reason}</dd>
          </>
        ) : null}
        <dt>Placed</dt>
        <dd>{byOn(hold.created_at, hold.created_by_name)}</dd>
        {hold.released_at ? (
          <>
            <dt>Released</dt>
            <dd>{byOn(hold.released_at, hold.released_by_name)}</dd>
          </>
        ) : null}
      </dl>
      <TargetList label={`${hold.name} holds`} targets={hold.targets} />
      {active ? (
        <Space wrap>
          <Button disabled={busy} aria-label={`Edit ${hold.name}`} onClick={() => onEdit(hold)}>
            Edit
          </Button>
          <Button
            disabled={busy}
            aria-label={`Release ${hold.name}`}
            onClick={() => {
              void modal.confirm({
                title: releaseConfirmTitle(hold.name),
                content: RELEASE_CONFIRM_TEXT,
                okText: 'Release hold',
                cancelText: 'Cancel',
                onOk: () => {
                  dispatch(recordsActions.holdReleaseRequested({ id: hold.id }));
                },
              });
            }}
          >
            Release
          </Button>
        </Space>
      ) : null}
    </li>
  );
}

/** The admin section. */
export function HoldsPage() {
  const dispatch = useAppDispatch();
  const holds = useAppSelector(selectHolds);
  const change = useAppSelector(selectRecordsChange);
  const [placing, setPlacing] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = holds.items.find((hold) => hold.id === editingId && hold.status === 'active');

  useEffect(() => {
    dispatch(recordsActions.holdsRequested());
  }, [dispatch]);

  useEffect(() => {
    if (editingId && change.status === 'succeeded' && change.kind === 'holdUpdate') {
      setEditingId(null);
      dispatch(recordsActions.changeDismissed());
    }
  }, [editingId, change, dispatch]);

  useEffect(() => {
    if (placing && change.status === 'succeeded' && change.kind === 'holdPlace') {
      setPlacing(false);
      dispatch(recordsActions.changeDismissed());
    }
  }, [placing, change, dispatch]);

  return (
    <section className="records-page" aria-label={HOLDS_SECTION.label}>
      <h2>Legal holds</h2>
      <p className="records-intro">
        While a hold is active, what it holds cannot be deleted permanently, whatever its retention.
      </p>
      <div className="records-toolbar">
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            dispatch(recordsActions.changeDismissed());
            setPlacing(true);
          }}
        >
          Place a hold
        </Button>
      </div>
      {!placing && !editing && change.status === 'failed' ? (
        <RecordsError message={change.error} />
      ) : null}
      <RecordsCards
        list={holds}
        label="Holds"
        loadingText="Loading legal holds…"
        emptyText={NO_HOLDS_TEXT}
        card={(hold) => (
          <HoldCard
            key={hold.id}
            hold={hold}
            busy={change.status === 'loading'}
            onEdit={(chosen) => {
              dispatch(recordsActions.changeDismissed());
              setEditingId(chosen.id);
            }}
          />
        )}
      />
      {editing ? (
        <EditHoldDialog
          hold={editing}
          onClose={() => {
            setEditingId(null);
            dispatch(recordsActions.changeDismissed());
          }}
        />
      ) : null}
      {placing ? (
        <PlaceHoldDialog
          onClose={() => {
            setPlacing(false);
            dispatch(recordsActions.changeDismissed());
          }}
        />
      ) : null}
    </section>
  );
}
