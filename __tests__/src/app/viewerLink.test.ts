import { describe, expect, it } from '@jest/globals';
import { viewerSearch } from '@src/app/viewerLink';

describe('viewerSearch', () => {
  it('adds the viewer parameters to the current query, leaving it unchanged', () => {
    const current = new URLSearchParams('q=deed&type=PDF&details=file%3Ad1');
    expect(viewerSearch(current, 'd7', 3)).toBe(
      'q=deed&type=PDF&details=file%3Ad1&view=file%3Ad7&page=3',
    );
    expect(current.toString()).toBe('q=deed&type=PDF&details=file%3Ad1');
  });

  it('replaces an open file and page, and drops the page when none (or no valid one) is given', () => {
    const open = new URLSearchParams('q=x&view=file%3Aold&page=9');
    expect(viewerSearch(open, 'new', 2)).toBe('q=x&view=file%3Anew&page=2');
    expect(viewerSearch(open, 'new')).toBe('q=x&view=file%3Anew');
    expect(viewerSearch(open, 'new', 0)).toBe('q=x&view=file%3Anew');
    expect(viewerSearch(open, 'new', 1.5)).toBe('q=x&view=file%3Anew');
  });
});
