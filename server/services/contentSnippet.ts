/**
 * The snippet of a content hit (docs/architecture.md "Index fields, contacts and search"): the
 * words around the best match on a page, as plain segments with the query's words marked. Made
 * here rather than by FTS5 snippet() or ts_headline so that both databases answer the same
 * segments with the words found the way the index finds them (Unicode letters and digits, the last
 * query word as a prefix), and no marker or HTML ever travels in the text.
 */
import type { SnippetSegment } from '@common/search';

/** Most words a snippet shows. */
export const SNIPPET_WORDS = 24;

/** Words shown before the first match when the page goes on before it. */
export const SNIPPET_LEAD_WORDS = 5;

/** Most characters of a snippet's text (a single huge "word" is cut). */
export const SNIPPET_MAX_CHARS = 280;

const ELLIPSIS = '…';

/** A word's form for comparison: lowercased, decomposed, without diacritics (as FTS5 unicode61). */
function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

interface Token {
  start: number;
  end: number;
  /** Index of the query word it matches, or -1. */
  matches: number;
}

/**
 * The snippet of a page for some query words.
 * @param text the page's text
 * @param words the query's words (lowercased; services/search.ts queryWords), the last matched as
 *   a prefix, the others whole
 * @returns segments in order; the text's first words when no word matches; [] for a blank text
 */
export function contentSnippet(text: string, words: readonly string[]): SnippetSegment[] {
  const folded = words.map(fold);
  const last = folded.length - 1;
  const tokens: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = fold(m[0]);
    const matches = folded.findIndex((q, i) => (i === last ? word.startsWith(q) : word === q));
    tokens.push({ start: m.index, end: m.index + m[0].length, matches });
  }
  if (tokens.length === 0) return [];
  // The window of SNIPPET_WORDS words holding the most distinct query words, then the most
  // matches, the earliest first; windows start a few words before a match.
  let bestStart = 0;
  let bestScore = [-1, -1];
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i]!.matches < 0) continue;
    const start = Math.max(0, i - SNIPPET_LEAD_WORDS);
    const seen = new Set<number>();
    let count = 0;
    for (let j = start; j < Math.min(tokens.length, start + SNIPPET_WORDS); j += 1) {
      if (tokens[j]!.matches >= 0) {
        seen.add(tokens[j]!.matches);
        count += 1;
      }
    }
    if (seen.size > bestScore[0]! || (seen.size === bestScore[0] && count > bestScore[1]!)) {
      bestScore = [seen.size, count];
      bestStart = start;
    }
  }
  const end = Math.min(tokens.length, bestStart + SNIPPET_WORDS) - 1;
  const segments: SnippetSegment[] = [];
  let chars = 0;
  let truncated = false;
  const push = (piece: string, match: boolean) => {
    if (piece === '') return;
    const room = SNIPPET_MAX_CHARS - chars;
    if (piece.length > room) truncated = true;
    const cut =
      piece.length > room ? Array.from(piece).slice(0, Math.max(0, room)).join('') : piece;
    if (cut === '') return;
    chars += cut.length;
    const previous = segments[segments.length - 1];
    if (previous && previous.match === match) previous.text += cut;
    else segments.push({ text: cut, match });
  };
  const plain = (from: number, to: number) => text.slice(from, to).replace(/\s+/g, ' ');
  // The page's own punctuation before the first word and after the last is kept; a cut is `…`.
  if (bestStart > 0) push(ELLIPSIS, false);
  else push(plain(0, tokens[0]!.start).trimStart(), false);
  let at = tokens[bestStart]!.start;
  let j = bestStart;
  for (; j <= end && !truncated; j += 1) {
    const token = tokens[j]!;
    push(plain(at, token.start), false);
    push(text.slice(token.start, token.end), token.matches >= 0);
    at = token.end;
  }
  if (j === tokens.length && !truncated) push(plain(at, text.length).trimEnd(), false);
  if (j < tokens.length || truncated) {
    chars = 0; // the ellipsis always fits
    push(ELLIPSIS, false);
  }
  return segments;
}
