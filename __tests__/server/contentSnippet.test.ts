/**
 * Content search's pure parts: splitting a derived text into pages, and the snippet of a page
 * (the words around the best match, the query's words marked, never HTML).
 */
import { describe, expect, it } from '@jest/globals';
import type { SnippetSegment } from '@common/search';
import { CONTENT_PAGE_MAX_CHARS, contentPagesOf } from '@server/services/imaging/contentPages';
import { contentSnippet, SNIPPET_MAX_CHARS, SNIPPET_WORDS } from '@server/services/contentSnippet';

/** The snippet as text with the matches in brackets. */
const show = (segments: SnippetSegment[]) =>
  segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join('');

describe('contentPagesOf', () => {
  it('numbers pages from 1 by form feeds, leaves blank pages out and cleans control characters', () => {
    const pages = contentPagesOf('first page\n\f \n\fthird\u0000page\u0007\fmore\f');
    expect(pages).toEqual([
      { page: 1, text: 'first page\n' },
      { page: 3, text: 'third page ' },
      { page: 4, text: 'more' },
    ]);
  });

  it('cuts a huge page at the cap, never inside a surrogate pair', () => {
    const text = 'a'.repeat(CONTENT_PAGE_MAX_CHARS - 1) + '😀' + 'tail';
    const [page] = contentPagesOf(text);
    expect(page!.text).toBe('a'.repeat(CONTENT_PAGE_MAX_CHARS - 1));
  });
});

describe('contentSnippet', () => {
  it('marks whole words and the last word as a prefix, ignoring case and accents', () => {
    const text = 'The Trust deed of the Café Zanzibar holdings, signed in trustee presence.';
    expect(show(contentSnippet(text, ['cafe', 'trust']))).toBe(
      'The [Trust] deed of the [Café] Zanzibar holdings, signed in [trustee] presence.',
    );
    // "trust" is not the last word: whole words only.
    expect(show(contentSnippet(text, ['trust', 'zanz']))).toBe(
      'The [Trust] deed of the Café [Zanzibar] holdings, signed in trustee presence.',
    );
  });

  it('shows the window holding the most query words, with ellipses where the page was cut', () => {
    const filler = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');
    const text = `${filler(40, 'alpha')} rare ${filler(60, 'beta')} rare gamma ${filler(40, 'delta')}`;
    const segments = contentSnippet(text, ['rare', 'gamma']);
    const shown = show(segments);
    expect(shown.startsWith('…beta beta')).toBe(true);
    expect(shown).toContain('[rare] [gamma]');
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.split(/\s+/).filter((w) => w !== '…').length).toBeLessThanOrEqual(SNIPPET_WORDS);
  });

  it('collapses white space, caps the length and answers the start when nothing matches', () => {
    expect(show(contentSnippet('one\n\n  two\tthree', ['two']))).toBe('one [two] three');
    expect(show(contentSnippet('nothing here', ['absent']))).toBe('nothing here');
    expect(contentSnippet('  \n ', ['x'])).toEqual([]);
    const long = `${'x'.repeat(1000)} needle`;
    const capped = contentSnippet(long, ['x']);
    expect(show(capped).length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS + 2 + 1);
    expect(capped[capped.length - 1]).toEqual({ text: '…', match: false });
  });

  it('keeps markup in the page as plain text segments', () => {
    const segments = contentSnippet('<b>bold</b> & <script>x</script>', ['bold']);
    expect(segments).toEqual([
      { text: '<b>', match: false },
      { text: 'bold', match: true },
      { text: '</b> & <script>x</script>', match: false },
    ]);
  });
});
