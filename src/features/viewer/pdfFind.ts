/**
 * Find in a PDF (pure, no pdf.js): a page's text is its text items joined (a space where an item
 * ends a line), a match is a range of that text, and highlighting it marks parts of the text
 * items, which are the spans of pdf.js's text layer in the same order.
 */

/** What find needs of a text item of `page.getTextContent()` (marked-content items have none). */
export interface FindTextItem {
  str: string;
  hasEOL: boolean;
}

/** A page's searchable text and where each text item starts in it. */
export interface PageText {
  /** The items joined, lowercased for matching. */
  text: string;
  /** The offset of each item in `text`. */
  starts: number[];
  /** The length of each item's string. */
  lengths: number[];
}

/** One match: a page (1-based) and a range [start, end) of its {@link PageText}. */
export interface FindMatch {
  page: number;
  start: number;
  end: number;
}

/** Part of a text item to highlight. */
export interface HighlightSegment {
  /** The text item (= the text layer's span) index. */
  item: number;
  /** Range within the item's string. */
  start: number;
  end: number;
  /** Part of the current match. */
  selected: boolean;
}

/**
 * A page's text for find.
 * @param items the page's text items with strings, in text-content order
 */
export function pageTextOf(items: readonly FindTextItem[]): PageText {
  let text = '';
  const starts: number[] = [];
  const lengths: number[] = [];
  for (const item of items) {
    starts.push(text.length);
    lengths.push(item.str.length);
    text += item.str.toLowerCase();
    if (item.hasEOL) text += ' ';
  }
  return { text, starts, lengths };
}

/** A query as it is matched: trimmed, lowercased, runs of white space as one space. */
function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Every match of `query` in the pages, in reading order; matches do not overlap.
 * @param pages the pages' text, page 1 first
 * @param query what was typed (see {@link normalizeQuery}); empty finds nothing
 */
export function findMatches(pages: readonly PageText[], query: string): FindMatch[] {
  const needle = normalizeQuery(query);
  const matches: FindMatch[] = [];
  if (!needle) return matches;
  pages.forEach((page, index) => {
    // White space of the page counts as one space, as in the query.
    const haystack = page.text.replace(/\s/g, ' ');
    for (
      let at = haystack.indexOf(needle);
      at >= 0;
      at = haystack.indexOf(needle, at + needle.length)
    ) {
      matches.push({ page: index + 1, start: at, end: at + needle.length });
    }
  });
  return matches;
}

/**
 * The parts of text items a page's matches cover.
 * @param page the page's text
 * @param matches the page's matches
 * @param selected the current match, if it is on this page
 */
export function highlightSegments(
  page: PageText,
  matches: readonly FindMatch[],
  selected: FindMatch | null,
): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  for (const match of matches) {
    const isSelected =
      selected !== null && selected.start === match.start && selected.end === match.end;
    for (let item = 0; item < page.starts.length; item += 1) {
      const from = page.starts[item]!;
      const to = from + page.lengths[item]!;
      if (to <= match.start) continue;
      if (from >= match.end) break;
      const start = Math.max(match.start, from) - from;
      const end = Math.min(match.end, to) - from;
      if (end > start) segments.push({ item, start, end, selected: isSelected });
    }
  }
  return segments;
}
