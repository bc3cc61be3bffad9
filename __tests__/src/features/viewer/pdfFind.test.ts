// Find in a PDF: matches over the joined text items, and the parts of items they cover.
import { describe, expect, it } from '@jest/globals';
import { findMatches, highlightSegments, pageTextOf } from '@src/features/viewer/pdfFind';

const page1 = pageTextOf([
  { str: 'Quarterly Statement', hasEOL: true },
  { str: 'Portfolio value rose', hasEOL: false },
  { str: ' in the quarter.', hasEOL: true },
]);
const page2 = pageTextOf([{ str: 'QUARTER two', hasEOL: false }]);

describe('findMatches', () => {
  it('finds every match, ignoring case, in reading order', () => {
    expect(findMatches([page1, page2], 'quarter')).toEqual([
      { page: 1, start: 0, end: 7 },
      { page: 1, start: 48, end: 55 },
      { page: 2, start: 0, end: 7 },
    ]);
  });

  it('matches across text items and across a line end', () => {
    expect(findMatches([page1], 'rose in')).toEqual([{ page: 1, start: 36, end: 43 }]);
    expect(findMatches([page1], 'statement  portfolio')).toEqual([{ page: 1, start: 10, end: 29 }]);
  });

  it('finds nothing for an empty query or absent text', () => {
    expect(findMatches([page1], '   ')).toEqual([]);
    expect(findMatches([page1], 'dividend')).toEqual([]);
  });
});

describe('highlightSegments', () => {
  it('marks the parts of each item a match covers, the current one selected', () => {
    const matches = findMatches([page1], 'rose in');
    expect(highlightSegments(page1, matches, matches[0]!)).toEqual([
      { item: 1, start: 16, end: 20, selected: true },
      { item: 2, start: 0, end: 3, selected: true },
    ]);
    const quarter = findMatches([page1], 'quarter');
    expect(highlightSegments(page1, quarter, null)).toEqual([
      { item: 0, start: 0, end: 7, selected: false },
      { item: 2, start: 8, end: 15, selected: false },
    ]);
  });
});
