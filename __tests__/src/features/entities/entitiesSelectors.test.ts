import { describe, expect, it } from '@jest/globals';
import {
  selectEntityRows,
  selectHasMoreItems,
  toEntityRow,
} from '@src/features/entities/entitiesSelectors';
import { rootReducer, type RootState } from '@src/store/rootReducer';
import { makeFile, makeFolder } from '../../fixtures';

function stateWith(items: RootState['entities']['items'], total = items.length): RootState {
  const initial = rootReducer(undefined, { type: 'test/init' });
  return { ...initial, entities: { ...initial.entities, items, total } };
}

describe('entities selectors', () => {
  it('builds rows with icon kind, formatted size and date', () => {
    const rows = selectEntityRows(
      stateWith([
        makeFolder({ name: 'Clients' }),
        makeFile({ id: 'a', name: 'Statement.pdf', extension: 'pdf', size: 1536 }),
        makeFile({ id: 'b', name: 'Book.xlsx', extension: 'xlsx', size: 104_857_600 }),
        makeFile({ id: 'c', name: 'notes', extension: '', size: 0 }),
      ]),
    );
    expect(rows.map((row) => [row.name, row.kind, row.sizeText])).toEqual([
      ['Clients', 'folder', '—'],
      ['Statement.pdf', 'pdf', '1.5 KB'],
      ['Book.xlsx', 'spreadsheet', '100.0 MB'],
      ['notes', 'other', '0 KB'],
    ]);
    expect(rows[1]!.dateText).toMatch(/^Mar [56], 2024 \d{1,2}:\d{2} [ap]m$/);
  });

  it('dates a row by its last change, else its creation', () => {
    const row = toEntityRow(makeFile({ updated_at: '', created_at: '2024-01-02T12:00:00.000Z' }));
    expect(row.date).toBe('2024-01-02T12:00:00.000Z');
  });

  it('marks files the viewer shows as previewable (renditions too), never folders', () => {
    const previewable = (extension: string, contentType: string) =>
      toEntityRow(makeFile({ extension, content_type: contentType })).previewable;
    expect(previewable('pdf', 'application/pdf')).toBe(true);
    expect(previewable('png', 'image/png')).toBe(true);
    expect(previewable('txt', 'text/plain')).toBe(true);
    // Office documents, SVG and TIFF through their PDF rendition.
    expect(
      previewable(
        'docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ),
    ).toBe(true);
    expect(previewable('svg', 'image/svg+xml')).toBe(true);
    expect(previewable('tiff', 'image/tiff')).toBe(true);
    expect(previewable('zip', 'application/zip')).toBe(false);
    expect(previewable('bin', 'application/octet-stream')).toBe(false);
    expect(previewable('', '')).toBe(false);
    // A file without a content type (an older record) is judged by its extension.
    const untyped = {
      ...makeFile({ extension: 'zip' }),
      content_type: undefined as unknown as string,
    };
    expect(toEntityRow(untyped).previewable).toBe(false);
    expect(toEntityRow(makeFolder()).previewable).toBe(false);
  });

  it('memoizes the rows', () => {
    const state = stateWith([makeFolder()]);
    expect(selectEntityRows(state)).toBe(selectEntityRows({ ...state }));
  });

  it('knows when more items remain', () => {
    expect(selectHasMoreItems(stateWith([makeFolder()], 3))).toBe(true);
    expect(selectHasMoreItems(stateWith([makeFolder()], 1))).toBe(false);
  });
});
