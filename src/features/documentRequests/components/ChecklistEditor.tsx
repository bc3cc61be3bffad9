/**
 * The checklist editor of a request and of a template: items in order, each with a name, an
 * optional description and optional index values (a field of the firm and a value the uploaded
 * files get). Items are added, removed and moved up or down with buttons, so the keyboard does
 * everything; the focus follows the item added or moved.
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Button, Input, Select } from 'antd';
import { useEffect, useId, useState } from 'react';
import {
  REQUEST_DESCRIPTION_MAX,
  REQUEST_ITEM_NAME_MAX,
  REQUEST_MAX_ITEMS,
} from '@common/documentRequests';
import {
  draftIndexValue,
  draftItem,
  moveItem,
  type DraftIndexValue,
  type DraftItem,
} from '../checklist';
import type { FieldChoice } from '../documentRequestsSlice';

/** Props of {@link ChecklistEditor}. */
export interface ChecklistEditorProps {
  items: DraftItem[];
  onChange: (items: DraftItem[]) => void;
  /** The index fields an item's values may use. */
  fields: FieldChoice[];
  disabled?: boolean;
}

/** The value control of one index value: the list's values, a date, a number or text. */
function ValueInput({
  id,
  field,
  value,
  label,
  disabled,
  onChange,
}: {
  id: string;
  field: FieldChoice | undefined;
  value: string;
  label: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  if (field?.type === 'list') {
    return (
      <Select<string>
        id={id}
        aria-label={label}
        value={value || null}
        disabled={disabled}
        placeholder="Choose a value"
        onChange={(next) => onChange(next ?? '')}
        options={field.values.map((v) => ({ value: v, label: v }))}
        className="request-value-input"
      />
    );
  }
  return (
    <Input
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled || field === undefined}
      type={field?.type === 'date' ? 'date' : 'text'}
      inputMode={field?.type === 'number' ? 'decimal' : undefined}
      placeholder={field === undefined ? 'Choose a field first' : 'Value'}
      onChange={(event) => onChange(event.target.value)}
      className="request-value-input"
    />
  );
}

/** The checklist editor: the items and the "Add item" button. */
export function ChecklistEditor({
  items,
  onChange,
  fields,
  disabled = false,
}: ChecklistEditorProps) {
  const base = useId();
  const [focusId, setFocusId] = useState<string | null>(null);
  const fieldsById = new Map(fields.map((f) => [f.id, f]));
  const idOf = (key: string, part: string) => `${base}-${key}-${part}`;

  // The focus follows an added or moved item once it is rendered.
  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  const update = (key: string, change: Partial<DraftItem>) =>
    onChange(items.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const updateValue = (item: DraftItem, valueKey: string, change: Partial<DraftIndexValue>) =>
    update(item.key, {
      indexValues: item.indexValues.map((v) => (v.key === valueKey ? { ...v, ...change } : v)),
    });

  return (
    <div className="request-checklist">
      {items.length > 0 ? (
        <ol className="request-checklist-items" aria-label="Requested items">
          {items.map((item, index) => {
            const number = index + 1;
            const named = item.name.trim() || `item ${number}`;
            return (
              <li key={item.key} className="request-checklist-item">
                <fieldset>
                  <legend>Item {number}</legend>
                  <div className="request-field">
                    <label htmlFor={idOf(item.key, 'name')}>Item name</label>
                    <Input
                      id={idOf(item.key, 'name')}
                      aria-label={`Item ${number} name`}
                      value={item.name}
                      maxLength={REQUEST_ITEM_NAME_MAX}
                      disabled={disabled}
                      onChange={(event) => update(item.key, { name: event.target.value })}
                    />
                  </div>
                  <div className="request-field">
                    <label htmlFor={idOf(item.key, 'description')}>Description (optional)</label>
                    <Input.TextArea
                      id={idOf(item.key, 'description')}
                      aria-label={`Item ${number} description`}
                      value={item.description}
                      maxLength={REQUEST_DESCRIPTION_MAX}
                      autoSize={{ minRows: 1, maxRows: 4 }}
                      disabled={disabled}
                      onChange={(event) => update(item.key, { description: event.target.value })}
                    />
                  </div>
                  {item.indexValues.length > 0 ? (
                    <ul className="request-index-values" aria-label={`Index values of ${named}`}>
                      {item.indexValues.map((row, rowIndex) => {
                        const field = row.fieldId ? fieldsById.get(row.fieldId) : undefined;
                        const rowLabel = `${named} index value ${rowIndex + 1}`;
                        return (
                          <li key={row.key} className="request-index-value">
                            <Select<string>
                              id={idOf(row.key, 'field')}
                              aria-label={`Index field of ${rowLabel}`}
                              value={row.fieldId}
                              disabled={disabled}
                              placeholder={fields.length ? 'Index field' : 'No index fields'}
                              onChange={(fieldId) =>
                                updateValue(item, row.key, { fieldId: fieldId ?? null, value: '' })
                              }
                              options={fields.map((f) => ({ value: f.id, label: f.name }))}
                              className="request-field-select"
                            />
                            <ValueInput
                              id={idOf(row.key, 'value')}
                              field={field}
                              value={row.value}
                              label={`Value of ${rowLabel}`}
                              disabled={disabled}
                              onChange={(value) => updateValue(item, row.key, { value })}
                            />
                            <Button
                              icon={<DeleteOutlined aria-hidden />}
                              aria-label={`Remove ${rowLabel}`}
                              disabled={disabled}
                              onClick={() =>
                                update(item.key, {
                                  indexValues: item.indexValues.filter((v) => v.key !== row.key),
                                })
                              }
                            />
                          </li>
                        );
                      })}
                    </ul>
                  ) : null}
                  <div className="request-item-actions">
                    <Button
                      size="small"
                      icon={<PlusOutlined aria-hidden />}
                      disabled={disabled || fields.length === 0}
                      onClick={() => {
                        const row = draftIndexValue();
                        update(item.key, { indexValues: [...item.indexValues, row] });
                        setFocusId(idOf(row.key, 'field'));
                      }}
                    >
                      Add index value
                    </Button>
                    <Button
                      size="small"
                      id={idOf(item.key, 'up')}
                      icon={<ArrowUpOutlined aria-hidden />}
                      aria-label={`Move ${named} up`}
                      disabled={disabled || index === 0}
                      onClick={() => {
                        onChange(moveItem(items, index, -1));
                        setFocusId(idOf(item.key, index === 1 ? 'down' : 'up'));
                      }}
                    />
                    <Button
                      size="small"
                      id={idOf(item.key, 'down')}
                      icon={<ArrowDownOutlined aria-hidden />}
                      aria-label={`Move ${named} down`}
                      disabled={disabled || index === items.length - 1}
                      onClick={() => {
                        onChange(moveItem(items, index, 1));
                        setFocusId(idOf(item.key, index === items.length - 2 ? 'up' : 'down'));
                      }}
                    />
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined aria-hidden />}
                      aria-label={`Remove ${named}`}
                      disabled={disabled}
                      onClick={() => onChange(items.filter((i) => i.key !== item.key))}
                    >
                      Remove
                    </Button>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="request-muted">No items yet.</p>
      )}
      <Button
        icon={<PlusOutlined aria-hidden />}
        disabled={disabled || items.length >= REQUEST_MAX_ITEMS}
        onClick={() => {
          const item = draftItem();
          onChange([...items, item]);
          setFocusId(idOf(item.key, 'name'));
        }}
      >
        Add item
      </Button>
    </div>
  );
}
