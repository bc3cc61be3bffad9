/**
 * The admin's "Values in use" dialog of one index field (SPEC section 7 "Index fields" GET
 * index_fields/{id}/applied_values and "Applied indexes" POST applied_indexes/update_many): the
 * field's distinct values on items, each with how many items carry it, and "Rename everywhere",
 * which asks for the new value (checked with validateIndexValue, as the server does), confirms with
 * the number of items affected and renames the value on all of them in one call. For a list field
 * the new value may be a new text: the server renames the list value with it.
 */
import { EditOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Spin } from 'antd';
import { useState } from 'react';
import {
  INDEX_MESSAGES,
  validateIndexValue,
  type AppliedValueCountDto,
  type IndexFieldDto,
} from '@common/indexFields';
import { plural } from '@common/text';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectValuesInUse } from '../indexFieldsSelectors';
import { indexFieldsActions } from '../indexFieldsSlice';
import { IndexValueInput } from './ApplyIndexForm';

/** "12 items", "1 item". */
function itemCount(count: number): string {
  return `${count} ${plural(count, 'item')}`;
}

/**
 * Checks a new name for a value of the field.
 * @returns the value as it will be stored, or the message saying why not
 */
function renameProblem(
  field: IndexFieldDto,
  oldValue: string,
  draft: string,
): { ok: true; value: string } | { ok: false; message: string } {
  // A list value may be renamed to a new text: the server renames the list value too.
  const check =
    field.type === 'list'
      ? validateIndexValue('text_field', draft)
      : validateIndexValue(field.type, draft, field.values);
  if (!check.ok) return check;
  if (check.value === oldValue) return { ok: false, message: INDEX_MESSAGES.sameValue };
  return check;
}

/** One value in use: its text and count, and Rename everywhere. */
function ValueRow({
  field,
  item,
  renaming,
}: {
  field: IndexFieldDto;
  item: AppliedValueCountDto;
  renaming: boolean;
}) {
  const dispatch = useAppDispatch();
  const { modal } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.value);
  const [problem, setProblem] = useState<string | null>(null);
  const shape = field.type === 'list' ? { ...field, type: 'text_field' as const } : field;

  const submit = () => {
    const check = renameProblem(field, item.value, draft);
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    void modal.confirm({
      title: 'Rename everywhere?',
      content: `“${item.value}” becomes “${check.value}” on ${itemCount(item.count)}.`,
      okText: 'Rename',
      onOk: () => {
        dispatch(
          indexFieldsActions.valueRenameRequested({
            fieldId: field.id,
            oldValue: item.value,
            value: check.value,
          }),
        );
        setEditing(false);
      },
    });
  };

  return (
    <li className="values-in-use-row" aria-label={`${item.value}: ${itemCount(item.count)}`}>
      {editing ? (
        <div className="values-in-use-edit">
          <IndexValueInput
            field={shape}
            value={draft}
            ariaLabel={`New value for “${item.value}”`}
            invalid={problem !== null}
            onPressEnter={submit}
            onChange={(value) => {
              setDraft(value);
              setProblem(null);
            }}
          />
          <Button size="small" type="primary" onClick={submit}>
            Rename
          </Button>
          <Button
            size="small"
            onClick={() => {
              setEditing(false);
              setDraft(item.value);
              setProblem(null);
            }}
          >
            Cancel
          </Button>
          {problem ? (
            <span className="ant-form-item-explain-error" role="alert">
              {problem}
            </span>
          ) : null}
        </div>
      ) : (
        <>
          <span className="values-in-use-value">{item.value}</span>
          <span className="admin-muted">{itemCount(item.count)}</span>
          {field.archived_at ? null : (
            <Button
              size="small"
              icon={<EditOutlined aria-hidden />}
              aria-label={`Rename “${item.value}” everywhere`}
              loading={renaming}
              onClick={() => {
                setDraft(item.value);
                setEditing(true);
              }}
            >
              Rename everywhere
            </Button>
          )}
        </>
      )}
    </li>
  );
}

/** The dialog, open while a field's values in use are shown. */
export function ValuesInUseDialog({ fields }: { fields: readonly IndexFieldDto[] }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectValuesInUse);
  const field = fields.find((candidate) => candidate.id === state.fieldId);
  if (!field) return null;
  const close = () => dispatch(indexFieldsActions.valuesInUseClosed());
  const reload = () => dispatch(indexFieldsActions.valuesInUseRequested({ fieldId: field.id }));

  let body;
  if (state.status === 'failed') {
    body = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={state.error}
        action={
          <Button size="small" onClick={reload}>
            Try again
          </Button>
        }
      />
    );
  } else if (state.status === 'loading' && state.items.length === 0) {
    body = (
      <span role="status">
        <Spin size="small" /> Loading values…
      </span>
    );
  } else if (state.items.length === 0) {
    body = <p className="admin-muted">No item has a value of {field.name} yet.</p>;
  } else {
    body = (
      <ul className="values-in-use" aria-label={`Values of ${field.name} in use`}>
        {state.items.map((item) => (
          <ValueRow
            key={item.value}
            field={field}
            item={item}
            renaming={state.rename.status === 'loading' && state.rename.oldValue === item.value}
          />
        ))}
      </ul>
    );
  }

  return (
    <Modal
      open
      title={`Values in use: ${field.name}`}
      onCancel={close}
      footer={<Button onClick={close}>Close</Button>}
      destroyOnHidden
    >
      {field.archived_at ? (
        <p className="admin-muted">This field is archived: restore it to rename its values.</p>
      ) : null}
      {state.rename.status === 'failed' ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={state.rename.error}
          className="values-in-use-error"
        />
      ) : null}
      {body}
    </Modal>
  );
}
