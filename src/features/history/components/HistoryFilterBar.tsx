/**
 * The History page's filters (SPEC section 9): date presets and a custom range, the 21
 * activity-type labels, a user, an item type, and one folder or file (from its History action).
 * Every change produces a new view; the page writes it to the URL.
 */
import { CloseOutlined } from '@ant-design/icons';
import { Button, DatePicker, Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_PRESETS, HISTORY_FILTER_LABELS, type HistoryLabel } from '@common/history';
import type { HistoryEntityType } from '@common/history';
import {
  EMPTY_VIEW,
  ENTITY_TYPE_OPTIONS,
  hasFilters,
  orderLabels,
  type DateChoice,
  type HistoryView,
} from '../historyView';

/** Props of {@link HistoryFilterBar}. */
export interface HistoryFilterBarProps {
  view: HistoryView;
  users: { value: string; label: string }[];
  usersLoading: boolean;
  onChange: (view: HistoryView) => void;
}

const ALL_TIME = 'all';
const CUSTOM = 'custom';

const DATE_OPTIONS = [
  { value: ALL_TIME, label: 'All time' },
  ...DATE_PRESETS.map((preset) => ({ value: preset, label: preset })),
  { value: CUSTOM, label: 'Custom range' },
];

const TYPE_OPTIONS = HISTORY_FILTER_LABELS.map(({ label }) => ({ value: label, label }));

/** The filter controls. */
export function HistoryFilterBar({ view, users, usersLoading, onChange }: HistoryFilterBarProps) {
  const dateValue = view.date ?? ALL_TIME;

  const onDate = (value: string) => {
    if (value === ALL_TIME) onChange({ ...view, date: null, from: null, to: null });
    else if (value === CUSTOM) {
      // Until a range is picked, the custom range starts as the current week.
      const today = dayjs().format('YYYY-MM-DD');
      onChange({
        ...view,
        date: 'custom',
        from: view.from ?? dayjs().startOf('week').format('YYYY-MM-DD'),
        to: view.to ?? today,
      });
    } else onChange({ ...view, date: value as DateChoice, from: null, to: null });
  };

  const onRange = (range: [Dayjs | null, Dayjs | null] | null) => {
    const [from, to] = range ?? [null, null];
    if (!from || !to) return;
    onChange({
      ...view,
      date: 'custom',
      from: from.format('YYYY-MM-DD'),
      to: to.format('YYYY-MM-DD'),
    });
  };

  return (
    <div className="history-filters" role="search" aria-label="History filters">
      <Select
        className="history-filter-date"
        aria-label="Date"
        value={dateValue}
        options={DATE_OPTIONS}
        onChange={onDate}
      />
      {view.date === 'custom' ? (
        <DatePicker.RangePicker
          aria-label="Custom range"
          allowClear={false}
          value={[view.from ? dayjs(view.from) : null, view.to ? dayjs(view.to) : null]}
          onChange={onRange}
        />
      ) : null}
      <Select
        className="history-filter-types"
        aria-label="Activity types"
        mode="multiple"
        allowClear
        placeholder="All activity types"
        maxTagCount={3}
        value={view.types}
        options={TYPE_OPTIONS}
        onChange={(types: HistoryLabel[]) => onChange({ ...view, types: orderLabels(types) })}
      />
      <Select
        className="history-filter-user"
        aria-label="User"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder="All users"
        loading={usersLoading}
        value={view.user ?? undefined}
        options={users}
        onChange={(user?: string) => onChange({ ...view, user: user ?? null })}
      />
      <Select
        className="history-filter-entity"
        aria-label="Item type"
        allowClear
        placeholder="All item types"
        value={view.entity ?? undefined}
        options={ENTITY_TYPE_OPTIONS as { value: HistoryEntityType; label: string }[]}
        onChange={(entity?: HistoryEntityType) => onChange({ ...view, entity: entity ?? null })}
      />
      {view.item ? (
        <Tag
          closable
          closeIcon={<CloseOutlined aria-label="Show all items" />}
          onClose={() => onChange({ ...view, item: null, itemName: null })}
        >
          Item: {view.itemName ?? 'selected item'}
        </Tag>
      ) : null}
      {hasFilters(view) ? (
        <Button type="link" onClick={() => onChange(EMPTY_VIEW)}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
