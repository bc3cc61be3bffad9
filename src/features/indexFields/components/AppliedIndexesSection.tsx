/**
 * The side panel section listing and applying index values (SPEC sections 3 and
 * 4): the item's applied values (change one; archive one, which keeps it shown as archived, and
 * restore it; remove one permanently) and the apply-index form
 * (one value per index-field id, inputs by field type, checked with validateIndexValue) with its
 * Apply button. Read-only members and archived items see the values only.
 */
import {
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  EditOutlined,
  InboxOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { Alert, Button, Spin, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { validateIndexValue, type AppliedIndexDto } from '@common/indexFields';
import type { EntityDto } from '@common/entities';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCanOrganise } from '@src/features/organise/organiseSelectors';
import {
  selectAppliedIndexes,
  selectApplyForm,
  selectApplyRequest,
  selectFieldsById,
  selectIndexFields,
} from '../indexFieldsSelectors';
import { indexFieldsActions } from '../indexFieldsSlice';
import { ApplyIndexForm, IndexValueInput } from './ApplyIndexForm';
import './indexFields.css';

/** One applied value: shown, or edited in place. */
function AppliedRow({ item, editable }: { item: AppliedIndexDto; editable: boolean }) {
  const dispatch = useAppDispatch();
  const field = useAppSelector(selectFieldsById).get(item.index_field_id);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.value);
  const [problem, setProblem] = useState<string | null>(null);
  const shape = field ?? { type: item.index_field_type, values: [], name: item.index_field_name };

  const save = () => {
    const check = validateIndexValue(shape.type, draft, shape.values);
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    if (check.value !== item.value) {
      dispatch(indexFieldsActions.appliedValueUpdateRequested({ id: item.id, value: check.value }));
    }
    setEditing(false);
  };

  if (editing) {
    return (
      <li className="applied-row">
        <span className="applied-name">{item.index_field_name}</span>
        <span className="applied-value">
          <IndexValueInput
            field={shape}
            value={draft}
            ariaLabel={`New value of ${item.index_field_name}`}
            invalid={problem !== null}
            onPressEnter={save}
            onChange={(value) => {
              setDraft(value);
              setProblem(null);
            }}
          />
          {problem ? (
            <span className="ant-form-item-explain-error" role="alert">
              {problem}
            </span>
          ) : null}
        </span>
        <Button
          size="small"
          type="text"
          icon={<CheckOutlined aria-hidden />}
          aria-label={`Save ${item.index_field_name}`}
          onClick={save}
        />
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined aria-hidden />}
          aria-label="Cancel"
          onClick={() => {
            setEditing(false);
            setDraft(item.value);
            setProblem(null);
          }}
        />
      </li>
    );
  }
  const archived = item.archived_at !== null;
  return (
    <li
      className={archived ? 'applied-row applied-row-archived' : 'applied-row'}
      aria-label={`${item.index_field_name}: ${item.value}${archived ? ' (archived)' : ''}`}
    >
      <span className="applied-name">{item.index_field_name}</span>
      <span className="applied-value">
        {item.value}
        {archived ? (
          <Tag className="applied-archived-tag" variant="filled">
            Archived
          </Tag>
        ) : null}
      </span>
      {editable ? (
        <>
          {archived ? (
            <Tooltip title="Restore: the value returns to the item">
              <Button
                size="small"
                type="text"
                icon={<UndoOutlined aria-hidden />}
                aria-label={`Restore ${item.index_field_name}`}
                onClick={() =>
                  dispatch(indexFieldsActions.appliedRestoreRequested({ id: item.id }))
                }
              />
            </Tooltip>
          ) : (
            <>
              <Button
                size="small"
                type="text"
                icon={<EditOutlined aria-hidden />}
                aria-label={`Change ${item.index_field_name}`}
                onClick={() => {
                  setDraft(item.value);
                  setEditing(true);
                }}
              />
              <Tooltip title="Archive: the value leaves the item and can be restored">
                <Button
                  size="small"
                  type="text"
                  icon={<InboxOutlined aria-hidden />}
                  aria-label={`Archive ${item.index_field_name}`}
                  onClick={() =>
                    dispatch(indexFieldsActions.appliedArchiveRequested({ id: item.id }))
                  }
                />
              </Tooltip>
            </>
          )}
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined aria-hidden />}
            aria-label={`Remove ${item.index_field_name}`}
            onClick={() => dispatch(indexFieldsActions.appliedRemoveRequested({ id: item.id }))}
          />
        </>
      ) : null}
    </li>
  );
}

/** The side panel section listing and applying index values. */
export function AppliedIndexesSection({ entity }: { entity: EntityDto }) {
  const dispatch = useAppDispatch();
  const applied = useAppSelector(selectAppliedIndexes);
  const fields = useAppSelector(selectIndexFields);
  const request = useAppSelector(selectApplyRequest);
  const form = useAppSelector((state) => selectApplyForm(state, 'panel'));
  const canOrganise = useAppSelector(selectCanOrganise);
  const editable = canOrganise && !entity.archived_at;
  const fieldsStatus = fields.status;

  useEffect(() => {
    dispatch(indexFieldsActions.appliedRequested({ entityId: entity.id }));
  }, [dispatch, entity.id]);

  useEffect(() => {
    if (fieldsStatus === 'idle') dispatch(indexFieldsActions.fieldsRequested());
  }, [dispatch, fieldsStatus]);

  const mine = applied.entityId === entity.id;
  const items = mine ? applied.items : [];
  const apply = () => dispatch(indexFieldsActions.applyRequested({ entityId: entity.id }));
  const hasValues = Object.values(form).some((value) => value.trim() !== '');

  let list;
  if (mine && applied.status === 'failed') {
    list = (
      <Alert
        type="error"
        role="alert"
        showIcon
        title={applied.error}
        action={
          <Button
            size="small"
            onClick={() => dispatch(indexFieldsActions.appliedRequested({ entityId: entity.id }))}
          >
            Try again
          </Button>
        }
      />
    );
  } else if (!mine || (applied.status === 'loading' && items.length === 0)) {
    list = (
      <span role="status">
        <Spin size="small" /> Loading index values…
      </span>
    );
  } else if (items.length === 0) {
    list = <p className="admin-muted">No index values yet.</p>;
  } else {
    list = (
      <ul className="applied-list" aria-label="Applied index values">
        {items.map((item) => (
          <AppliedRow key={item.id} item={item} editable={editable} />
        ))}
      </ul>
    );
  }

  return (
    <section className="applied-indexes" aria-label="Index values">
      <h3>Index values</h3>
      {list}
      {editable ? (
        <>
          <ApplyIndexForm form="panel" onSubmit={apply} />
          {hasValues ? (
            <div>
              <Button
                type="primary"
                size="small"
                loading={request.status === 'loading'}
                onClick={apply}
              >
                Apply
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
      {request.status === 'failed' && request.error ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={request.error}
          closable
          onClose={() => dispatch(indexFieldsActions.applyErrorCleared())}
        />
      ) : null}
    </section>
  );
}
