/**
 * The apply-index form of SPEC sections 3 and 4 (one value per index-field id: update a value,
 * clear all, remove a key), shared by the side panel section and the bulk dialog, and the value
 * input by field type (text, date picker, number, select for a list). Values are checked as typed
 * with validateIndexForm of common/indexFields.ts; the form state lives in the slice.
 */
import { CloseOutlined } from '@ant-design/icons';
import { Button, DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { INDEX_VALUE_MAX_LENGTH, validateIndexForm, type IndexFieldDto } from '@common/indexFields';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectApplicableFields, selectApplyForm } from '../indexFieldsSelectors';
import { indexFieldsActions, type ApplyFormName } from '../indexFieldsSlice';

/** Props of {@link IndexValueInput}. */
export interface IndexValueInputProps {
  field: Pick<IndexFieldDto, 'type' | 'values' | 'name'>;
  /** The value as text (dates YYYY-MM-DD). */
  value: string;
  onChange: (value: string) => void;
  /** Accessible name; defaults to the field's name. */
  ariaLabel?: string;
  /** Shown in error style. */
  invalid?: boolean;
  id?: string;
  onPressEnter?: () => void;
}

/** One value input by the field's type: text, date picker, number or the list's values. */
export function IndexValueInput({
  field,
  value,
  onChange,
  ariaLabel,
  invalid,
  id,
  onPressEnter,
}: IndexValueInputProps) {
  const label = ariaLabel ?? field.name;
  const status = invalid ? 'error' : undefined;
  switch (field.type) {
    case 'date': {
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dayjs(value, 'YYYY-MM-DD') : null;
      return (
        <DatePicker
          id={id}
          aria-label={label}
          className="apply-form-input"
          format="YYYY-MM-DD"
          status={status}
          value={day && day.isValid() ? day : null}
          onChange={(next) => onChange(next ? next.format('YYYY-MM-DD') : '')}
        />
      );
    }
    case 'list':
      return (
        <Select<string>
          id={id}
          aria-label={label}
          className="apply-form-input"
          status={status}
          showSearch
          placeholder="Choose a value"
          value={value === '' ? undefined : value}
          onChange={(next) => onChange(next ?? '')}
          options={[...field.values]
            .sort((a, b) => a.position - b.position)
            .map((entry) => ({ value: entry.value, label: entry.value }))}
        />
      );
    case 'number':
      return (
        <Input
          id={id}
          aria-label={label}
          className="apply-form-input"
          inputMode="decimal"
          status={status}
          value={value}
          maxLength={INDEX_VALUE_MAX_LENGTH}
          onChange={(event) => onChange(event.target.value)}
          onPressEnter={onPressEnter}
        />
      );
    default:
      return (
        <Input
          id={id}
          aria-label={label}
          className="apply-form-input"
          status={status}
          value={value}
          maxLength={INDEX_VALUE_MAX_LENGTH}
          onChange={(event) => onChange(event.target.value)}
          onPressEnter={onPressEnter}
        />
      );
  }
}

/** Props of {@link ApplyIndexForm}. */
export interface ApplyIndexFormProps {
  /** Which form of the slice: the side panel's or the bulk dialog's. */
  form: ApplyFormName;
  /** Submits the form (Enter in a text input, or the caller's button). */
  onSubmit?: () => void;
}

/**
 * The form's rows (a field, its value input and a "remove" button per index-field id), a picker
 * adding a field, and the Clear all button.
 */
export function ApplyIndexForm({ form, onSubmit }: ApplyIndexFormProps) {
  const dispatch = useAppDispatch();
  const fields = useAppSelector(selectApplicableFields);
  const values = useAppSelector((state) => selectApplyForm(state, form));
  const errors = useMemo(() => validateIndexForm(values, fields), [values, fields]);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const keys = Object.keys(values).filter((key) => byId.has(key));
  const unused = fields.filter((field) => !(field.id in values));
  const prefix = form === 'bulk' ? 'bulk-index' : 'panel-index';

  return (
    <div className="apply-form" role="group" aria-label="Apply index values">
      {keys.map((key) => {
        const field = byId.get(key)!;
        const inputId = `${prefix}-${key}`;
        const error = errors[key];
        return (
          <div key={key}>
            <div className="apply-form-row">
              <label htmlFor={inputId}>{field.name}</label>
              <IndexValueInput
                id={inputId}
                field={field}
                value={values[key] ?? ''}
                invalid={Boolean(error)}
                onPressEnter={onSubmit}
                onChange={(value) =>
                  dispatch(indexFieldsActions.formValueUpdated({ form, indexFieldId: key, value }))
                }
              />
              <Button
                size="small"
                type="text"
                icon={<CloseOutlined aria-hidden />}
                aria-label={`Remove ${field.name} from the form`}
                onClick={() =>
                  dispatch(indexFieldsActions.formKeyRemoved({ form, indexFieldId: key }))
                }
              />
            </div>
            {error ? (
              <div className="ant-form-item-explain-error" role="alert">
                {error}
              </div>
            ) : null}
          </div>
        );
      })}
      {unused.length > 0 ? (
        <Select<string>
          aria-label="Add an index field"
          placeholder="Add an index field…"
          className="apply-form-input"
          value={null}
          showSearch
          optionFilterProp="label"
          onChange={(fieldId) => {
            if (fieldId) {
              dispatch(
                indexFieldsActions.formValueUpdated({ form, indexFieldId: fieldId, value: '' }),
              );
            }
          }}
          options={unused.map((field) => ({ value: field.id, label: field.name }))}
        />
      ) : null}
      {fields.length === 0 ? (
        <p className="admin-muted">No index fields yet. An administrator creates them in Admin.</p>
      ) : null}
      {keys.length > 0 ? (
        <div>
          <Button size="small" onClick={() => dispatch(indexFieldsActions.formCleared({ form }))}>
            Clear all
          </Button>
        </div>
      ) : null}
    </div>
  );
}
