/**
 * /admin/retention: the firm's retention schedules — each one's name, period and basis, the files
 * it selects by an index value, its lock and what it applies to — with create, edit (a locked
 * schedule takes only a new name and a longer period: the server's refusal is shown as it comes),
 * lock (for good, after a confirmation), delete and taking it off a target (unlocked only), and
 * applying it to a folder.
 */
import { LockOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Input, InputNumber, Modal, Radio, Select, Space, Tag } from 'antd';
import { useEffect, useId, useState } from 'react';
import {
  formatDay,
  RECORDS_NAME_MAX_LENGTH,
  RETENTION_BASES,
  RETENTION_BASIS_LABELS,
  RETENTION_PERIOD_MAX,
  RETENTION_PERIOD_UNITS,
  scheduleRuleText,
  type CreateRetentionScheduleRequest,
  type RetentionBasis,
  type RetentionPeriodUnit,
  type RetentionScheduleDto,
} from '@common/retention';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { PickerFolder } from '@src/features/organise/organiseSlice';
import { selectRecordsChange, selectRecordsFields, selectSchedules } from '../recordsSelectors';
import { recordsActions, type RecordsChangeKind } from '../recordsSlice';
import { FolderChooser, RecordsCards, RecordsError, TargetList } from './RecordsCommon';

/** The section's path below /admin and its tab label. */
export const SCHEDULES_SECTION = { path: 'retention', label: 'Retention schedules' } as const;

/** Shown when the firm has no schedule yet. */
export const NO_SCHEDULES_TEXT =
  'No retention schedules yet. A schedule keeps files for a period, then lists them for disposition.';

/** Title of the lock confirmation. */
function lockConfirmTitle(name: string): string {
  return `Lock “${name}”?`;
}

/** Body of the lock confirmation. */
export const LOCK_CONFIRM_TEXT =
  'A locked schedule is locked for good: it can never be unlocked or deleted, it cannot be taken off what it applies to, and its period can be lengthened but never shortened.';

/** What a schedule's selector reads as: `Files whose “Matter type” is “Probate”`, or ''. */
function selectorText(schedule: RetentionScheduleDto): string {
  if (!schedule.selector_field_id || schedule.selector_value === null) return '';
  return `Files whose “${schedule.selector_field_name ?? 'index field'}” is “${schedule.selector_value}”`;
}

/** Which dialog of the page is open. */
type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; schedule: RetentionScheduleDto }
  | { kind: 'apply'; schedule: RetentionScheduleDto }
  | null;

/** The change kind each dialog waits for. */
const DIALOG_CHANGE: Record<'create' | 'edit' | 'apply', RecordsChangeKind> = {
  create: 'scheduleCreate',
  edit: 'scheduleUpdate',
  apply: 'scheduleTarget',
};

/** The form of a new schedule, or of an existing one (`schedule`). */
function ScheduleDialog({
  schedule,
  onClose,
}: {
  schedule: RetentionScheduleDto | null;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectRecordsChange);
  const fields = useAppSelector(selectRecordsFields);
  const locked = schedule?.locked_at != null;
  const [name, setName] = useState(schedule?.name ?? '');
  const [count, setCount] = useState<number | null>(schedule?.period_count ?? 6);
  const [unit, setUnit] = useState<RetentionPeriodUnit>(schedule?.period_unit ?? 'years');
  const [basis, setBasis] = useState<RetentionBasis>(schedule?.basis ?? 'created');
  const [basisField, setBasisField] = useState<string | null>(schedule?.basis_field_id ?? null);
  const [selectorField, setSelectorField] = useState<string | null>(
    schedule?.selector_field_id ?? null,
  );
  const [selectorValue, setSelectorValue] = useState(schedule?.selector_value ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = {
    name: useId(),
    count: useId(),
    basis: useId(),
    basisField: useId(),
    selector: useId(),
    value: useId(),
  };
  const dateFields = fields.items.filter((f) => f.type === 'date');
  const selectorFields = fields.items.filter((f) => f.type === 'text_field' || f.type === 'list');
  const saving = change.status === 'loading';

  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setProblem('A name is required.');
    if (count === null || !Number.isInteger(count) || count < 1) {
      return setProblem(
        `The period must be a whole number of ${unit} from 1 to ${RETENTION_PERIOD_MAX[unit]}.`,
      );
    }
    if (basis === 'index_date' && !basisField) {
      return setProblem('Choose the date index field the period is counted from.');
    }
    const value = selectorValue.trim();
    if ((selectorField && value === '') || (!selectorField && value !== '')) {
      return setProblem('Choose both an index field and its value, or neither.');
    }
    setProblem(null);
    if (locked && schedule) {
      dispatch(
        recordsActions.scheduleUpdateRequested({
          id: schedule.id,
          changes: { name: trimmed, period_count: count, period_unit: unit },
        }),
      );
      return;
    }
    const body: CreateRetentionScheduleRequest = {
      name: trimmed,
      period_count: count,
      period_unit: unit,
      basis,
      basis_field_id: basis === 'index_date' ? basisField : null,
      selector_field_id: selectorField,
      selector_value: selectorField ? value : null,
    };
    if (schedule)
      dispatch(recordsActions.scheduleUpdateRequested({ id: schedule.id, changes: body }));
    else dispatch(recordsActions.scheduleCreateRequested(body));
  };

  return (
    <Modal
      open
      title={schedule ? `Edit “${schedule.name}”` : 'New retention schedule'}
      okText={schedule ? 'Save' : 'Create'}
      cancelText="Cancel"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="records-form">
        {locked ? (
          <p className="records-muted">
            This schedule is locked: only its name and a longer period can be changed.
          </p>
        ) : null}
        <div className="records-field">
          <label htmlFor={ids.name}>Name</label>
          <Input
            id={ids.name}
            value={name}
            maxLength={RECORDS_NAME_MAX_LENGTH}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="records-field">
          <label htmlFor={ids.count}>Keep files for</label>
          <div className="records-period">
            <InputNumber<number>
              id={ids.count}
              min={1}
              max={RETENTION_PERIOD_MAX[unit]}
              precision={0}
              value={count}
              onChange={(value) => setCount(value)}
            />
            <Select<RetentionPeriodUnit>
              aria-label="Period unit"
              value={unit}
              onChange={setUnit}
              options={RETENTION_PERIOD_UNITS.map((u) => ({ value: u, label: u }))}
              style={{ minWidth: 110 }}
            />
          </div>
        </div>
        <fieldset className="records-fieldset" disabled={locked}>
          <legend id={ids.basis}>Counted from</legend>
          <Radio.Group
            aria-labelledby={ids.basis}
            value={basis}
            disabled={locked}
            onChange={(event) => setBasis(event.target.value as RetentionBasis)}
          >
            <Space orientation="vertical">
              {RETENTION_BASES.map((b) => (
                <Radio key={b} value={b}>
                  {RETENTION_BASIS_LABELS[b]}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </fieldset>
        {basis === 'index_date' ? (
          <div className="records-field">
            <label htmlFor={ids.basisField}>Date index field</label>
            <Select<string>
              id={ids.basisField}
              disabled={locked}
              value={basisField}
              onChange={setBasisField}
              placeholder={dateFields.length ? 'Choose a date field' : 'No date index fields'}
              options={dateFields.map((f) => ({ value: f.id, label: f.name }))}
              className="records-wide"
            />
          </div>
        ) : null}
        <div className="records-field">
          <label htmlFor={ids.selector}>Also keep files by an index value (optional)</label>
          <Select<string>
            id={ids.selector}
            allowClear
            disabled={locked}
            value={selectorField}
            onChange={(value) => setSelectorField(value ?? null)}
            placeholder="No index field"
            options={selectorFields.map((f) => ({ value: f.id, label: f.name }))}
            className="records-wide"
          />
        </div>
        {selectorField ? (
          <div className="records-field">
            <label htmlFor={ids.value}>Value</label>
            <Input
              id={ids.value}
              disabled={locked}
              value={selectorValue}
              onChange={(event) => setSelectorValue(event.target.value)}
            />
          </div>
        ) : null}
        <RecordsError message={problem ?? (change.status === 'failed' ? change.error : null)} />
      </div>
    </Modal>
  );
}

/** Applies a schedule to a folder chosen in the folder chooser. */
function ApplyDialog({
  schedule,
  onClose,
}: {
  schedule: RetentionScheduleDto;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const change = useAppSelector(selectRecordsChange);
  const [folder, setFolder] = useState<PickerFolder | null>(null);
  return (
    <Modal
      open
      title={`Apply “${schedule.name}” to a folder`}
      okText="Apply here"
      cancelText="Cancel"
      okButtonProps={{ disabled: !folder }}
      confirmLoading={change.status === 'loading'}
      onOk={() => {
        if (folder) {
          dispatch(
            recordsActions.scheduleTargetAddRequested({
              id: schedule.id,
              target: { type: 'folder', id: folder.id },
            }),
          );
        }
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      <div className="records-form">
        <p className="records-muted">
          The schedule keeps the files of the folder and of every folder below it.
        </p>
        <FolderChooser onChoose={setFolder} />
        <p aria-live="polite">{folder ? `Folder: ${folder.name}` : 'Choose a folder.'}</p>
        <RecordsError message={change.status === 'failed' ? change.error : null} />
      </div>
    </Modal>
  );
}

/** One schedule's card. */
function ScheduleCard({
  schedule,
  busy,
  onEdit,
  onApply,
}: {
  schedule: RetentionScheduleDto;
  busy: boolean;
  onEdit: () => void;
  onApply: () => void;
}) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const locked = schedule.locked_at !== null;
  const selector = selectorText(schedule);
  const headingId = useId();
  return (
    <li className="records-card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {schedule.name}{' '}
        {locked ? (
          <Tag icon={<LockOutlined aria-hidden />} color="gold">
            Locked
          </Tag>
        ) : null}
      </h3>
      <dl className="records-facts">
        <dt>Keeps files</dt>
        <dd>{scheduleRuleText(schedule)}</dd>
        {selector ? (
          <>
            <dt>Selects</dt>
            <dd>{selector}</dd>
          </>
        ) : null}
        <dt>Lock</dt>
        <dd>
          {locked
            ? `Locked on ${formatDay(schedule.locked_at?.slice(0, 10))}${
                schedule.locked_by_name ? ` by ${schedule.locked_by_name}` : ''
              }`
            : 'Not locked'}
        </dd>
      </dl>
      <TargetList
        label={`${schedule.name} applies to`}
        targets={schedule.targets}
        disabled={busy}
        onRemove={
          locked
            ? undefined
            : (target) =>
                dispatch(
                  recordsActions.scheduleTargetRemoveRequested({
                    id: schedule.id,
                    targetId: target.id,
                  }),
                )
        }
      />
      <Space wrap>
        <Button onClick={onEdit} disabled={busy} aria-label={`Edit ${schedule.name}`}>
          Edit
        </Button>
        <Button onClick={onApply} disabled={busy} aria-label={`Apply ${schedule.name} to a folder`}>
          Apply to a folder
        </Button>
        {locked ? null : (
          <>
            <Button
              icon={<LockOutlined aria-hidden />}
              disabled={busy}
              aria-label={`Lock ${schedule.name}`}
              onClick={() => {
                void modal.confirm({
                  title: lockConfirmTitle(schedule.name),
                  content: LOCK_CONFIRM_TEXT,
                  okText: 'Lock for good',
                  cancelText: 'Cancel',
                  onOk: () => {
                    dispatch(recordsActions.scheduleLockRequested({ id: schedule.id }));
                  },
                });
              }}
            >
              Lock
            </Button>
            <Button
              danger
              disabled={busy}
              aria-label={`Delete ${schedule.name}`}
              onClick={() => {
                void modal.confirm({
                  title: `Delete “${schedule.name}”?`,
                  content: 'The files it keeps are no longer kept by it.',
                  okText: 'Delete',
                  okButtonProps: { danger: true },
                  cancelText: 'Cancel',
                  onOk: () => {
                    dispatch(recordsActions.scheduleDeleteRequested({ id: schedule.id }));
                  },
                });
              }}
            >
              Delete
            </Button>
          </>
        )}
      </Space>
    </li>
  );
}

/** The admin section. */
export function SchedulesPage() {
  const dispatch = useAppDispatch();
  const schedules = useAppSelector(selectSchedules);
  const change = useAppSelector(selectRecordsChange);
  const [dialog, setDialog] = useState<Dialog>(null);

  useEffect(() => {
    dispatch(recordsActions.schedulesRequested());
  }, [dispatch]);

  // A dialog closes once its change succeeded.
  useEffect(() => {
    if (dialog && change.status === 'succeeded' && change.kind === DIALOG_CHANGE[dialog.kind]) {
      setDialog(null);
      dispatch(recordsActions.changeDismissed());
    }
  }, [dialog, change, dispatch]);

  const close = () => {
    setDialog(null);
    dispatch(recordsActions.changeDismissed());
  };
  const busy = change.status === 'loading';

  return (
    <section className="records-page" aria-label={SCHEDULES_SECTION.label}>
      <h2>Retention schedules</h2>
      <p className="records-intro">
        A schedule keeps the files it applies to for a period. Until it ends they cannot be deleted
        permanently; then they appear in Disposition.
      </p>
      <div className="records-toolbar">
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => {
            dispatch(recordsActions.changeDismissed());
            setDialog({ kind: 'create' });
          }}
        >
          New schedule
        </Button>
      </div>
      {dialog === null && change.status === 'failed' ? (
        <RecordsError message={change.error} />
      ) : null}
      <RecordsCards
        list={schedules}
        label="Schedules"
        loadingText="Loading retention schedules…"
        emptyText={NO_SCHEDULES_TEXT}
        card={(schedule) => (
          <ScheduleCard
            key={schedule.id}
            schedule={schedule}
            busy={busy}
            onEdit={() => {
              dispatch(recordsActions.changeDismissed());
              setDialog({ kind: 'edit', schedule });
            }}
            onApply={() => {
              dispatch(recordsActions.changeDismissed());
              setDialog({ kind: 'apply', schedule });
            }}
          />
        )}
      />
      {dialog?.kind === 'create' ? <ScheduleDialog schedule={null} onClose={close} /> : null}
      {dialog?.kind === 'edit' ? (
        <ScheduleDialog schedule={dialog.schedule} onClose={close} />
      ) : null}
      {dialog?.kind === 'apply' ? <ApplyDialog schedule={dialog.schedule} onClose={close} /> : null}
    </section>
  );
}
