/**
 * /admin/index-fields (SPEC sections 3 and 4): the firm's index fields with
 * create and edit (name, type, description and, for a list field, its values ordered by position:
 * reordered by native HTML5 drag and drop or with the keyboard's Move up / Move down buttons),
 * archive and restore, delete with the success toast's Undo (undo-delete), and each field's values
 * in use with Rename everywhere (ValuesInUseDialog).
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  InboxOutlined,
  PlusOutlined,
  RollbackOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Alert, Button, Input, List, Modal, Select, Space, Spin, Tag } from 'antd';
import { useEffect, useId, useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import {
  DEFAULT_INDEX_FIELD_TYPE,
  INDEX_FIELD_DESCRIPTION_MAX_LENGTH,
  INDEX_FIELD_NAME_MAX_LENGTH,
  INDEX_FIELD_TYPES,
  INDEX_FIELD_TYPE_LABELS,
  INDEX_LIST_MAX_VALUES,
  INDEX_MESSAGES,
  INDEX_VALUE_MAX_LENGTH,
  indexMessage,
  type IndexFieldDto,
  type IndexFieldType,
} from '@common/indexFields';
import { plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentDatabaseId } from '@src/features/session/sessionSelectors';
import { selectFieldChange, selectFieldDialog, selectIndexFields } from '../indexFieldsSelectors';
import { indexFieldsActions } from '../indexFieldsSlice';
import { ValuesInUseDialog } from './ValuesInUseDialog';
import './indexFields.css';

/** One list value being edited: an existing one keeps its id; `key` is stable for React. */
export interface EditedValue {
  key: string;
  id?: string;
  value: string;
}

/**
 * Moves the entry at `from` to `to` (both in range), the others keeping their order.
 * @returns a new array
 */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) {
    return [...items];
  }
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/**
 * Checks the dialog's fields before they are sent (the server checks again).
 * @returns the first problem's message, or null
 */
export function fieldFormProblem(
  name: string,
  type: IndexFieldType,
  description: string,
  values: readonly EditedValue[],
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return INDEX_MESSAGES.nameRequired;
  if (trimmed.length > INDEX_FIELD_NAME_MAX_LENGTH) return INDEX_MESSAGES.nameTooLong;
  if (description.length > INDEX_FIELD_DESCRIPTION_MAX_LENGTH) {
    return INDEX_MESSAGES.descriptionTooLong;
  }
  if (type !== 'list') return null;
  if (values.length === 0) return INDEX_MESSAGES.listValuesRequired;
  if (values.length > INDEX_LIST_MAX_VALUES) return INDEX_MESSAGES.tooManyListValues;
  const seen = new Set<string>();
  for (const entry of values) {
    const key = entry.value.trim().toLowerCase();
    if (seen.has(key))
      return indexMessage(INDEX_MESSAGES.duplicateListValue, { value: entry.value });
    seen.add(key);
  }
  return null;
}

/** What a field's row says about it: type, and the values of a list. */
function fieldSummary(field: IndexFieldDto): string {
  const type = INDEX_FIELD_TYPE_LABELS[field.type];
  if (field.type !== 'list') return type;
  const shown = field.values.slice(0, 5).map((entry) => entry.value);
  const more = field.values.length > shown.length ? ', …' : '';
  return `${type} · ${field.values.length} ${plural(field.values.length, 'value')}: ${shown.join(', ')}${more}`;
}

let nextKey = 0;
function newKey(): string {
  nextKey += 1;
  return `new-${nextKey}`;
}

/** The ordered values of a list field: add, remove, drag to reorder, or Move up / Move down. */
function ListValuesEditor({
  values,
  onChange,
}: {
  values: EditedValue[];
  onChange: (values: EditedValue[]) => void;
}) {
  const [draft, setDraft] = useState('');
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const inputId = useId();
  const add = () => {
    const value = draft.trim();
    if (value === '') return;
    onChange([...values, { key: newKey(), value }]);
    setDraft('');
  };
  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    const from = dragging ?? Number(event.dataTransfer.getData('text/plain'));
    if (Number.isInteger(from)) onChange(moveItem(values, from, to));
    setDragging(null);
    setOver(null);
  };
  return (
    <div className="index-values">
      <ol className="index-values-list" aria-label="List values">
        {values.map((entry, index) => (
          <li
            key={entry.key}
            className={`index-value-row${over === index ? ' drop-target' : ''}${
              dragging === index ? ' dragging' : ''
            }`}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', String(index));
              setDragging(index);
            }}
            onDragOver={(event) => {
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
              setOver(index);
            }}
            onDragLeave={() => setOver((current) => (current === index ? null : current))}
            onDrop={(event) => onDrop(event, index)}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
          >
            <HolderOutlined aria-hidden className="index-value-handle" />
            <Input
              size="small"
              aria-label={`Value ${index + 1}`}
              value={entry.value}
              maxLength={INDEX_VALUE_MAX_LENGTH}
              onChange={(event) =>
                onChange(
                  values.map((item, i) =>
                    i === index ? { ...item, value: event.target.value } : item,
                  ),
                )
              }
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={`Move ${entry.value} up`}
              disabled={index === 0}
              onClick={() => onChange(moveItem(values, index, index - 1))}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={`Move ${entry.value} down`}
              disabled={index === values.length - 1}
              onClick={() => onChange(moveItem(values, index, index + 1))}
            />
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={`Remove ${entry.value}`}
              onClick={() => onChange(values.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      {values.length === 0 ? <p className="admin-muted">No values yet.</p> : null}
      <Space.Compact block>
        <Input
          id={inputId}
          aria-label="New value"
          placeholder="New value"
          value={draft}
          maxLength={INDEX_VALUE_MAX_LENGTH}
          onChange={(event) => setDraft(event.target.value)}
          onPressEnter={(event) => {
            event.preventDefault();
            add();
          }}
        />
        <Button icon={<PlusOutlined aria-hidden />} onClick={add} disabled={draft.trim() === ''}>
          Add value
        </Button>
      </Space.Compact>
    </div>
  );
}

/** Create or edit a field. */
function FieldDialog({ field }: { field: IndexFieldDto | null }) {
  const dispatch = useAppDispatch();
  const dialog = useAppSelector(selectFieldDialog);
  const [name, setName] = useState(field?.name ?? '');
  const [type, setType] = useState<IndexFieldType>(field?.type ?? DEFAULT_INDEX_FIELD_TYPE);
  const [description, setDescription] = useState(field?.description ?? '');
  const [values, setValues] = useState<EditedValue[]>(
    () =>
      field?.values
        .slice()
        .sort((a, b) => a.position - b.position)
        .map((entry) => ({ key: entry.id, id: entry.id, value: entry.value })) ?? [],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const typeId = useId();
  const descriptionId = useId();
  const submit = () => {
    const found = fieldFormProblem(name, type, description, values);
    setProblem(found);
    if (found) return;
    dispatch(
      indexFieldsActions.fieldSaveRequested({
        fieldId: field?.id ?? null,
        name: name.trim(),
        type,
        description: description.trim(),
        values: values.map((entry) =>
          entry.id ? { id: entry.id, value: entry.value.trim() } : { value: entry.value.trim() },
        ),
      }),
    );
  };
  const error = problem ?? (dialog.status === 'failed' ? dialog.error : null);
  return (
    <Modal
      open
      title={field ? `Edit index field ${field.name}` : 'Create index field'}
      okText={field ? 'Save' : 'Create'}
      cancelText="Cancel"
      confirmLoading={dialog.status === 'loading'}
      onOk={submit}
      onCancel={() => dispatch(indexFieldsActions.fieldDialogClosed())}
      destroyOnHidden
    >
      <div className="admin-dialog">
        <div className="admin-field">
          <label htmlFor={nameId}>Name</label>
          <Input
            id={nameId}
            value={name}
            maxLength={INDEX_FIELD_NAME_MAX_LENGTH}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(null);
            }}
          />
        </div>
        <div className="admin-field">
          <label htmlFor={typeId}>Type</label>
          <Select<IndexFieldType>
            id={typeId}
            className="admin-select"
            value={type}
            onChange={(value) => {
              setType(value);
              setProblem(null);
            }}
            options={INDEX_FIELD_TYPES.map((value) => ({
              value,
              label: INDEX_FIELD_TYPE_LABELS[value],
            }))}
          />
        </div>
        <div className="admin-field">
          <label htmlFor={descriptionId}>Description</label>
          <Input.TextArea
            id={descriptionId}
            value={description}
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={INDEX_FIELD_DESCRIPTION_MAX_LENGTH}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
        {type === 'list' ? (
          <div className="admin-field" role="group" aria-label="Values">
            <span>Values (drag, or use the arrows, to order them)</span>
            <ListValuesEditor
              values={values}
              onChange={(next) => {
                setValues(next);
                setProblem(null);
              }}
            />
          </div>
        ) : null}
        {error ? <Alert type="error" role="alert" showIcon title={error} /> : null}
      </div>
    </Modal>
  );
}

/** The open dialog, if any. */
function FieldDialogs({ fields }: { fields: readonly IndexFieldDto[] }) {
  const dialog = useAppSelector(selectFieldDialog);
  if (dialog.mode === 'create') return <FieldDialog field={null} />;
  if (dialog.mode !== 'edit') return null;
  const field = fields.find((item) => item.id === dialog.fieldId);
  return field ? <FieldDialog key={field.id} field={field} /> : null;
}

/** The admin section managing index fields. */
export function IndexFieldsPage() {
  const dispatch = useAppDispatch();
  const fields = useAppSelector(selectIndexFields);
  const change = useAppSelector(selectFieldChange);
  const databaseId = useAppSelector(selectCurrentDatabaseId);

  useEffect(() => {
    dispatch(indexFieldsActions.fieldsRequested());
  }, [dispatch, databaseId]);

  const busy = (fieldId: string) => change.status === 'loading' && change.fieldId === fieldId;

  let body;
  if (fields.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={fields.error}
        action={
          <Button size="small" onClick={() => dispatch(indexFieldsActions.fieldsRequested())}>
            Try again
          </Button>
        }
      />
    );
  } else if (fields.status !== 'succeeded' && fields.items.length === 0) {
    body = (
      <div className="list-loading" role="status">
        <Spin description="Loading index fields…">
          <div className="list-loading-area" />
        </Spin>
      </div>
    );
  } else {
    body = (
      <div role="group" aria-label="Index field list" className="admin-scroll">
        <List
          dataSource={fields.items}
          locale={{
            emptyText:
              'No index fields yet. Create one (account number, document type, tax year…) to tag documents.',
          }}
          renderItem={(field) => (
            <List.Item
              aria-label={field.name}
              actions={[
                <Button
                  key="edit"
                  size="small"
                  icon={<EditOutlined aria-hidden />}
                  aria-label={`Edit ${field.name}`}
                  onClick={() =>
                    dispatch(indexFieldsActions.fieldDialogOpened({ fieldId: field.id }))
                  }
                >
                  Edit
                </Button>,
                field.archived_at ? (
                  <Button
                    key="restore"
                    size="small"
                    icon={<RollbackOutlined aria-hidden />}
                    aria-label={`Restore ${field.name}`}
                    loading={busy(field.id)}
                    onClick={() =>
                      dispatch(indexFieldsActions.fieldRestoreRequested({ fieldId: field.id }))
                    }
                  >
                    Restore
                  </Button>
                ) : (
                  <Button
                    key="archive"
                    size="small"
                    icon={<InboxOutlined aria-hidden />}
                    aria-label={`Archive ${field.name}`}
                    loading={busy(field.id)}
                    onClick={() =>
                      dispatch(indexFieldsActions.fieldArchiveRequested({ fieldId: field.id }))
                    }
                  >
                    Archive
                  </Button>
                ),
                <Button
                  key="values"
                  size="small"
                  icon={<UnorderedListOutlined aria-hidden />}
                  aria-label={`Values in use of ${field.name}`}
                  onClick={() =>
                    dispatch(indexFieldsActions.valuesInUseRequested({ fieldId: field.id }))
                  }
                >
                  Values in use
                </Button>,
                <Link
                  key="missing"
                  to={`/missing-indexes?field=${encodeURIComponent(field.id)}`}
                  aria-label={`Files missing it: ${field.name}`}
                >
                  Files missing it
                </Link>,
                <Button
                  key="delete"
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`Delete ${field.name}`}
                  disabled={busy(field.id)}
                  onClick={() =>
                    dispatch(indexFieldsActions.fieldDeleteRequested({ fieldId: field.id }))
                  }
                >
                  Delete
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <span>
                    {field.name} {field.archived_at ? <Tag color="default">Archived</Tag> : null}
                  </span>
                }
                description={
                  <>
                    <span>{fieldSummary(field)}</span>
                    {field.description ? (
                      <span className="index-field-description">{field.description}</span>
                    ) : null}
                  </>
                }
              />
            </List.Item>
          )}
        />
      </div>
    );
  }

  return (
    <section className="admin-section" aria-label="Index fields">
      <div className="admin-toolbar">
        <span className="admin-count" role="status">
          {fields.status === 'succeeded'
            ? `${fields.items.length} ${plural(fields.items.length, 'index field')}`
            : ''}
        </span>
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          onClick={() => dispatch(indexFieldsActions.fieldDialogOpened({ fieldId: null }))}
        >
          Create index field
        </Button>
      </div>
      {body}
      <FieldDialogs fields={fields.items} />
      <ValuesInUseDialog fields={fields.items} />
    </section>
  );
}
