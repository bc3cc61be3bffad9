import { describe, expect, it } from '@jest/globals';
import { datePresetRange, HISTORY_FILTER_LABELS } from '@common/history';
import {
  EMPTY_VIEW,
  filtersForView,
  hasFilters,
  searchFromView,
  slug,
  statsRangeForView,
  viewFromSearch,
  type HistoryView,
} from '@src/features/history/historyView';

const NOW = new Date(2024, 4, 15, 10, 30); // Wednesday 15 May 2024, local time

describe('history view <-> URL query', () => {
  it('reads every filter from a shared address', () => {
    const view = viewFromSearch(
      '?date=this-week&type=log-in&type=added&type=permission-added&user=u2&entity=folder' +
        '&item=f1&item_name=Smith%20family',
    );
    expect(view).toEqual({
      date: 'This week',
      from: null,
      to: null,
      types: ['Added', 'Permission added', 'Log in'],
      user: 'u2',
      entity: 'folder',
      item: 'f1',
      itemName: 'Smith family',
    });
  });

  it('writes a stable, readable query and reads it back unchanged', () => {
    const views: HistoryView[] = [
      EMPTY_VIEW,
      { ...EMPTY_VIEW, date: 'Today' },
      { ...EMPTY_VIEW, date: 'This quarter', types: ['Renamed', 'Index Added'] },
      { ...EMPTY_VIEW, date: 'custom', from: '2024-02-28', to: '2024-03-02', user: 'u 7' },
      { ...EMPTY_VIEW, entity: 'share_link', item: 'x/y', itemName: 'A & B, "quoted"' },
      {
        ...EMPTY_VIEW,
        types: HISTORY_FILTER_LABELS.map((l) => l.label),
      },
    ];
    for (const view of views) expect(viewFromSearch(searchFromView(view))).toEqual(view);
    expect(searchFromView({ ...EMPTY_VIEW, date: 'This week', types: ['Log out', 'Added'] })).toBe(
      'date=this-week&type=added&type=log-out',
    );
    expect(searchFromView(EMPTY_VIEW)).toBe('');
    expect(hasFilters(EMPTY_VIEW)).toBe(false);
    expect(hasFilters({ ...EMPTY_VIEW, user: 'u1' })).toBe(true);
  });

  it('has a URL form for each of the 36 labels (the spec 21, records 7, versions 2, requests 6) and the six presets', () => {
    const slugs = HISTORY_FILTER_LABELS.map((l) => slug(l.label));
    expect(new Set(slugs).size).toBe(36);
    for (const { label } of HISTORY_FILTER_LABELS) {
      expect(viewFromSearch(`type=${slug(label)}`).types).toEqual([label]);
    }
    for (const preset of [
      'Today',
      'Yesterday',
      'This week',
      'This month',
      'This quarter',
      'This year',
    ]) {
      expect(viewFromSearch(`date=${slug(preset)}`).date).toBe(preset);
    }
  });

  it('ignores what it does not know', () => {
    expect(
      viewFromSearch('date=someday&type=teleported&type=added&entity=planet&item_name=orphan'),
    ).toEqual({ ...EMPTY_VIEW, types: ['Added'] });
    for (const bad of [
      'date=custom&from=2024-02-30&to=2024-03-01',
      'date=custom&from=2024-03-05&to=2024-03-01',
      'date=custom&from=2024-03-01',
      'date=custom&from=yesterday&to=today',
    ]) {
      expect(viewFromSearch(bad).date).toBeNull();
    }
  });
});

describe('history view -> request filters', () => {
  it('resolves a preset at the given moment', () => {
    const view: HistoryView = {
      ...EMPTY_VIEW,
      date: 'Today',
      types: ['Added', 'Log in'],
      user: 'u2',
    };
    expect(filtersForView(view, NOW)).toEqual({
      ...datePresetRange('Today', NOW),
      labels: ['Added', 'Log in'],
      user_id: 'u2',
    });
  });

  it('turns a custom range into local midnights, the last day included', () => {
    const filters = filtersForView(
      {
        ...EMPTY_VIEW,
        date: 'custom',
        from: '2024-03-01',
        to: '2024-03-31',
        entity: 'file',
        item: 'f9',
      },
      NOW,
    );
    expect(filters).toEqual({
      start: new Date(2024, 2, 1).toISOString(),
      end: new Date(2024, 3, 1).toISOString(),
      entity_type: 'file',
      item_id: 'f9',
    });
  });

  it('sends no filter for the empty view', () => {
    expect(filtersForView(EMPTY_VIEW, NOW)).toEqual({});
  });

  it("charts the view's range, or the last 30 days up to today", () => {
    expect(statsRangeForView({ ...EMPTY_VIEW, date: 'This month' }, NOW)).toEqual(
      datePresetRange('This month', NOW),
    );
    expect(statsRangeForView(EMPTY_VIEW, NOW)).toEqual({
      start: new Date(2024, 3, 16).toISOString(),
      end: new Date(2024, 4, 16).toISOString(),
    });
  });
});
