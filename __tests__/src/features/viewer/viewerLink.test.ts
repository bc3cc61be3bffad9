// The viewer's address: `view=file:<id>` and `page=<n>` on any page's own query.
import { describe, expect, it } from '@jest/globals';
import { parseViewerParams, viewerSearch, withoutViewerParams } from '@src/app/viewerLink';
import { withoutDetailsParam } from '@src/features/details/detailsLink';

describe('viewerSearch', () => {
  it("adds the file and the page to the page's own query", () => {
    const params = new URLSearchParams('q=smith&details=file:x1');
    expect(viewerSearch(params, 'f-1', 3)).toBe('q=smith&details=file%3Ax1&view=file%3Af-1&page=3');
    // The query given is not changed.
    expect(params.toString()).toBe('q=smith&details=file%3Ax1');
  });

  it('drops a page named before when none (or nonsense) is given', () => {
    const open = new URLSearchParams('view=file:a&page=7');
    expect(viewerSearch(open, 'b')).toBe('view=file%3Ab');
    expect(viewerSearch(open, 'b', 1)).toBe('view=file%3Ab&page=1');
    expect(viewerSearch(open, 'b', 2.5)).toBe('view=file%3Ab');
    expect(viewerSearch(open, 'b', -3)).toBe('view=file%3Ab');
    expect(viewerSearch(open, 'b', 0)).toBe('view=file%3Ab');
  });
});

describe('parseViewerParams', () => {
  it('reads back what viewerSearch wrote', () => {
    const written = viewerSearch(new URLSearchParams('type=added'), '01a2-b3', 12);
    expect(parseViewerParams(new URLSearchParams(written))).toEqual({
      fileId: '01a2-b3',
      page: 12,
    });
    expect(parseViewerParams(new URLSearchParams('view=file:f1'))).toEqual({
      fileId: 'f1',
      page: null,
    });
  });

  it('ignores a malformed file and reads a malformed page as none', () => {
    for (const bad of ['', 'view=', 'view=folder:f1', 'view=file:', 'view=file:a/b', 'view=f1']) {
      expect(parseViewerParams(new URLSearchParams(bad))).toBeNull();
    }
    expect(parseViewerParams(new URLSearchParams(`view=file:${'a'.repeat(65)}`))).toBeNull();
    for (const page of ['0', '-1', 'two', '1.5', '99999999', '']) {
      expect(parseViewerParams(new URLSearchParams(`view=file:f1&page=${page}`))).toEqual({
        fileId: 'f1',
        page: null,
      });
    }
  });
});

describe('closing', () => {
  it("leaves the page's own query", () => {
    expect(
      withoutViewerParams(
        new URLSearchParams('q=x&view=file:f1&page=2&details=file:f1'),
      ).toString(),
    ).toBe('q=x&details=file%3Af1');
  });

  it("keeps the viewer out of a page's own view of the query, but not a page's own page", () => {
    expect(withoutDetailsParam(new URLSearchParams('q=smith&view=file:f1&page=4'))).toBe('q=smith');
    expect(withoutDetailsParam(new URLSearchParams('fields=a&page=4'))).toBe('fields=a&page=4');
  });
});
