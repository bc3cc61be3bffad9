/**
 * A PDF in the viewer, through pdf.js (loaded on first use, see ../pdfjs.ts): the pages in a
 * scrolling column, drawn only when near the view (the visible pages and one page either side;
 * the others keep their size, empty), each with its text layer so that text can be selected;
 * page thumbnails in a side strip that can be hidden; zoom in, out and fit width; "Page N of M"
 * following the scroll and written to the address (`page=`); the keyboard (PageDown, PageUp,
 * ArrowRight, ArrowLeft, Home, End); and find in the document (Ctrl+F or ⌘F): every match
 * highlighted in the text layer, Enter and Shift+Enter (or the arrows) to the next and previous.
 */
import {
  CloseOutlined,
  DownOutlined,
  MinusOutlined,
  PlusOutlined,
  SearchOutlined,
  UnorderedListOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { Alert, Button, Input, Spin, Tooltip, type InputRef } from 'antd';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { VIEWER_MESSAGES } from '@common/imaging';
import {
  findMatches,
  highlightSegments,
  pageTextOf,
  type FindMatch,
  type FindTextItem,
  type HighlightSegment,
  type PageText,
} from '../pdfFind';
import type { PDFDocumentProxy, TextLayer as TextLayerType } from '../pdfjs';
import { zoomed } from './MediaViews';

/** Room around the pages (CSS padding of the column), in CSS pixels. */
const PAGE_GAP = 16;

/** The highlights of a page without matches (one array, so pages do not redraw). */
const NO_SEGMENTS: readonly HighlightSegment[] = [];

/** Props of {@link PdfView}. */
export interface PdfViewProps {
  /** The PDF's address (the file's preview: the original PDF or its rendition). */
  url: string;
  /** The page the address names (1-based). */
  page: number;
  /** Asks for another page (the viewer writes it to the address). */
  onPageChange: (page: number) => void;
}

/** A page's size at scale 1, in CSS pixels. */
interface PageSize {
  width: number;
  height: number;
}

/** Whether a key event was typed into a field (the field keeps its keys). */
function typedInField(event: globalThis.KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT', 'VIDEO', 'AUDIO'].includes(target.tagName)
  );
}

/** Replaces a text span's content with its string, the covered parts in `<mark>`-like spans. */
function paintSpan(span: HTMLElement, text: string, segments: readonly HighlightSegment[]): void {
  if (segments.length === 0) {
    span.textContent = text;
    return;
  }
  const parts: Node[] = [];
  let at = 0;
  for (const segment of [...segments].sort((a, b) => a.start - b.start)) {
    if (segment.start > at) parts.push(document.createTextNode(text.slice(at, segment.start)));
    const mark = document.createElement('span');
    mark.className = segment.selected
      ? 'viewer-highlight viewer-highlight-selected'
      : 'viewer-highlight';
    mark.textContent = text.slice(segment.start, segment.end);
    parts.push(mark);
    at = segment.end;
  }
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  span.replaceChildren(...parts);
}

/** Props of one page. */
interface PdfPageProps {
  doc: PDFDocumentProxy;
  number: number;
  scale: number;
  /** The size to reserve before the page is read (the first page's). */
  estimate: PageSize;
  /** Draw it (near the view); otherwise only its place is kept. */
  drawn: boolean;
  /** The find highlights on this page. */
  segments: readonly HighlightSegment[];
  /** Changes when the current match changes: the page with it scrolls it into view. */
  selectionToken: number;
  register: (number: number, element: HTMLDivElement | null) => void;
}

/** One page: its canvas and text layer while drawn, an empty box of its size otherwise. */
const PdfPage = memo(function PdfPage({
  doc,
  number,
  scale,
  estimate,
  drawn,
  segments,
  selectionToken,
  register,
}: PdfPageProps) {
  const [size, setSize] = useState<PageSize | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const layer = useRef<{ spans: HTMLElement[]; strings: string[] } | null>(null);
  const [layerReady, setLayerReady] = useState(0);

  useEffect(() => {
    if (!drawn) return;
    let cancelled = false;
    let renderTask: { cancel(): void; promise: Promise<unknown> } | null = null;
    let textLayer: TextLayerType | null = null;
    void (async () => {
      const { TextLayer } = await import('../pdfjs');
      const page = await doc.getPage(number);
      if (cancelled) return;
      const viewport = page.getViewport({ scale });
      setSize({ width: viewport.width / scale, height: viewport.height / scale });
      const canvas = canvasRef.current;
      const textContainer = textRef.current;
      if (!canvas || !textContainer) return;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      renderTask = page.render({
        canvas,
        viewport,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      renderTask.promise.catch(() => undefined);
      textContainer.replaceChildren();
      layer.current = null;
      textLayer = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: textContainer,
        viewport,
      });
      const rendering = textLayer;
      await rendering.render();
      if (cancelled) return;
      layer.current = { spans: rendering.textDivs, strings: rendering.textContentItemsStr };
      setLayerReady((n) => n + 1);
    })().catch((error: unknown) => {
      if (!cancelled) console.warn(`Page ${number} could not be drawn:`, error);
    });
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [doc, number, scale, drawn]);

  // The find highlights, painted into the text layer's spans.
  const painted = useRef<Set<number>>(new Set());
  useEffect(() => {
    const current = layer.current;
    if (!drawn || !current) return;
    const byItem = new Map<number, HighlightSegment[]>();
    for (const segment of segments) {
      byItem.set(segment.item, [...(byItem.get(segment.item) ?? []), segment]);
    }
    for (const item of painted.current) {
      const span = current.spans[item];
      if (span && !byItem.has(item)) paintSpan(span, current.strings[item] ?? '', []);
    }
    for (const [item, parts] of byItem) {
      const span = current.spans[item];
      if (span) paintSpan(span, current.strings[item] ?? '', parts);
    }
    painted.current = new Set(byItem.keys());
  }, [segments, layerReady, drawn]);

  useEffect(() => {
    if (!drawn || !segments.some((segment) => segment.selected)) return;
    textRef.current
      ?.querySelector('.viewer-highlight-selected')
      ?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [selectionToken, layerReady, drawn, segments]);

  const own = size ?? estimate;
  const width = own.width * scale;
  const height = own.height * scale;
  return (
    <div
      className="viewer-page"
      data-page-number={number}
      ref={(element) => register(number, element)}
      style={{ width, height, ['--total-scale-factor' as string]: scale }}
      aria-label={`Page ${number}`}
      role="region"
    >
      {drawn ? (
        <>
          <canvas ref={canvasRef} style={{ width, height }} aria-hidden />
          <div ref={textRef} className="viewer-text-layer" />
        </>
      ) : null}
    </div>
  );
});

/** A page thumbnail, drawn once it scrolls into the strip. */
const Thumbnail = memo(function Thumbnail({
  doc,
  number,
  current,
  onOpen,
}: {
  doc: PDFDocumentProxy;
  number: number;
  current: boolean;
  onOpen: (page: number) => void;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas || seen) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [seen]);
  useEffect(() => {
    if (!seen) return;
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<unknown> } | null = null;
    void doc.getPage(number).then((page) => {
      const canvas = ref.current;
      if (cancelled || !canvas) return;
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: 96 / base.width });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      task = page.render({ canvas, viewport });
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, number, seen]);
  return (
    <button
      type="button"
      className={current ? 'viewer-thumb viewer-thumb-current' : 'viewer-thumb'}
      aria-label={`Go to page ${number}`}
      aria-current={current ? 'page' : undefined}
      onClick={() => onOpen(number)}
    >
      <canvas ref={ref} width={96} height={124} aria-hidden />
      <span>{number}</span>
    </button>
  );
});

/**
 * The PDF view (see the module comment).
 * @param props the address, the page named by the address, and how to ask for another
 */
export function PdfView({ url, page, onPageChange }: PdfViewProps) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [estimate, setEstimate] = useState<PageSize | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [width, setWidth] = useState(0);
  const [near, setNear] = useState<[number, number]>([1, 1]);
  const [shownPage, setShownPage] = useState(page);
  const [thumbnails, setThumbnails] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  const pages = useRef(new Map<number, HTMLDivElement>());
  const numPages = doc?.numPages ?? 0;

  // Find.
  const [findOpen, setFindOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<FindMatch[] | null>(null);
  const [matchIndex, setMatchIndex] = useState(0);
  const [selectionToken, setSelectionToken] = useState(0);
  const texts = useRef(new Map<number, PageText>());
  const findInput = useRef<InputRef>(null);

  useEffect(() => {
    let cancelled = false;
    let task: { destroy(): Promise<void> } | null = null;
    setDoc(null);
    setError(null);
    void import('../pdfjs')
      .then(async ({ loadPdf }) => {
        const loading = loadPdf(url);
        task = loading;
        const loaded = await loading.promise;
        const first = await loaded.getPage(1);
        const viewport = first.getViewport({ scale: 1 });
        if (cancelled) return;
        texts.current = new Map();
        setEstimate({ width: viewport.width, height: viewport.height });
        setDoc(loaded);
      })
      .catch((failure: unknown) => {
        if (!cancelled) setError(failure instanceof Error ? failure.message : String(failure));
      });
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [url]);

  // The column's width, for fit width.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [doc]);

  const scale = useMemo(() => {
    if (zoom !== 'fit') return zoom;
    if (!estimate || width <= 0) return 1;
    return Math.max(0.1, (width - 2 * PAGE_GAP) / estimate.width);
  }, [zoom, estimate, width]);

  const register = useCallback((number: number, element: HTMLDivElement | null) => {
    if (element) pages.current.set(number, element);
    else pages.current.delete(number);
  }, []);

  /**
   * What the scroll position shows: the page at the top third of the view (`current`) and the
   * pages in view (`first`..`last`).
   */
  const measure = useCallback((): { current: number; first: number; last: number } | null => {
    const element = scroller.current;
    if (!element || numPages === 0) return null;
    const top = element.scrollTop;
    const bottom = top + element.clientHeight;
    const reading = top + element.clientHeight / 3;
    let current = 1;
    let first = numPages;
    let last = 1;
    for (let number = 1; number <= numPages; number += 1) {
      const box = pages.current.get(number);
      if (!box) continue;
      const from = box.offsetTop;
      const to = from + box.offsetHeight;
      if (from <= reading) current = number;
      if (to >= top && from <= bottom) {
        first = Math.min(first, number);
        last = Math.max(last, number);
      }
    }
    if (first > last) first = last = current;
    return { current, first, last };
  }, [numPages]);

  /** Draws the pages in view and one either side. */
  const drawAround = useCallback(
    (first: number, last: number) => {
      const from = Math.max(1, first - 1);
      const to = Math.min(numPages, last + 1);
      setNear(([a, b]) => (a === from && b === to ? [a, b] : [from, to]));
    },
    [numPages],
  );

  // The page shown, as a ref for the handlers; `reported` is the page last put in the address.
  const shown = useRef(page);
  const reported = useRef(page);
  const show = useCallback((number: number) => {
    shown.current = number;
    setShownPage(number);
  }, []);
  // Set while the view scrolls itself (to a page): that scroll names no page of its own.
  const programmatic = useRef(false);
  /**
   * The page the keyboard, a button, a thumbnail or a match last went to, until the reader moves
   * the view by themselves (wheel, touch, pointer, another key) or the address names a page not
   * asked for here. The next page key goes on from it rather than from the page the scrolling has
   * reached so far, so N quick presses move N pages; while it is set the page count shows it.
   */
  const aimed = useRef<number | null>(null);
  /** The pages asked for since `aimed` was set: the address catching up with them is ours. */
  const asked = useRef(new Set<number>());
  const forgetAim = useCallback(() => {
    aimed.current = null;
    asked.current.clear();
  }, []);

  /** Scrolls a page to the top of the view and shows it as the current page. */
  const scrollToPage = useCallback(
    (number: number) => {
      const element = scroller.current;
      const box = pages.current.get(number);
      if (!element || !box) return;
      const target = Math.max(0, box.offsetTop - PAGE_GAP);
      if (Math.abs(element.scrollTop - target) >= 1) {
        programmatic.current = true;
        element.scrollTop = target;
      }
      show(number);
      const seen = measure();
      if (seen) drawAround(Math.min(seen.first, number), Math.max(seen.last, number));
    },
    [measure, drawAround, show],
  );

  // Scrolling by the reader: draw what is near, follow the page, and once the scrolling settles
  // put the page in the address.
  useEffect(() => {
    const element = scroller.current;
    if (!element || !doc) return;
    let frame = 0;
    let settle = 0;
    const onScroll = () => {
      if (programmatic.current) {
        programmatic.current = false;
        return;
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const seen = measure();
        if (!seen) return;
        drawAround(seen.first, seen.last);
        show(aimed.current ?? seen.current);
      });
      window.clearTimeout(settle);
      settle = window.setTimeout(() => {
        // The page last gone to while there is one (the scrolling may not have reached it yet).
        const current = aimed.current ?? shown.current;
        if (current !== reported.current) {
          reported.current = current;
          onPageChange(current);
        }
      }, 250);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    // The reader moving the view: the page is again the one the scroll position shows.
    const readerMoves = ['wheel', 'touchstart', 'pointerdown'] as const;
    for (const type of readerMoves) element.addEventListener(type, forgetAim, { passive: true });
    return () => {
      element.removeEventListener('scroll', onScroll);
      for (const type of readerMoves) element.removeEventListener(type, forgetAim);
      cancelAnimationFrame(frame);
      window.clearTimeout(settle);
    };
  }, [doc, measure, drawAround, show, onPageChange, forgetAim]);

  // The address named a page (a link, the keyboard, a thumbnail, a match): show it, unless the
  // address only follows the reader's scrolling.
  const clampedPage = numPages > 0 ? Math.min(Math.max(1, page), numPages) : page;
  useEffect(() => {
    if (!doc) return;
    if (clampedPage === reported.current && clampedPage === shown.current) return;
    if (!asked.current.has(clampedPage)) forgetAim();
    else if (aimed.current !== null && aimed.current !== clampedPage) {
      // An address asked for by an earlier key press, arriving after a later one: the address
      // goes on to the page last gone to instead of the view going back.
      reported.current = clampedPage;
      onPageChange(aimed.current);
      return;
    }
    reported.current = clampedPage;
    scrollToPage(clampedPage);
  }, [doc, clampedPage, scrollToPage, forgetAim, onPageChange]);

  // A new zoom keeps the page shown at the top.
  useEffect(() => {
    if (doc) scrollToPage(shown.current);
  }, [doc, scale, scrollToPage]);

  const goTo = useCallback(
    (number: number) => {
      if (numPages === 0) return;
      const target = Math.min(Math.max(1, number), numPages);
      aimed.current = target;
      asked.current.add(target);
      if (target === reported.current) {
        scrollToPage(target);
        return;
      }
      // Shown at once, so that a second key press before the address changes goes on from it.
      show(target);
      onPageChange(target);
    },
    [numPages, onPageChange, scrollToPage, show],
  );

  const openFind = useCallback(() => {
    setFindOpen(true);
    window.setTimeout(() => findInput.current?.focus({ cursor: 'all' }), 0);
  }, []);

  // The keyboard, anywhere in the viewer but in a field.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        openFind();
        return;
      }
      if (typedInField(event) || event.altKey || event.ctrlKey || event.metaKey) return;
      // From the page last gone to, not the one the scrolling has reached (see `aimed`).
      const at = aimed.current ?? shown.current;
      const steps: Record<string, number> = {
        PageDown: at + 1,
        ArrowRight: at + 1,
        PageUp: at - 1,
        ArrowLeft: at - 1,
        Home: 1,
        End: numPages,
      };
      const target = steps[event.key];
      if (target === undefined) {
        // Another key (ArrowDown, Space…) may scroll the view itself.
        if (!['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) forgetAim();
        return;
      }
      event.preventDefault();
      goTo(target);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [goTo, openFind, numPages, forgetAim]);

  /** The text of a page for find, read once. */
  const pageText = useCallback(
    async (number: number): Promise<PageText> => {
      const known = texts.current.get(number);
      if (known) return known;
      if (!doc) return pageTextOf([]);
      const content = await (await doc.getPage(number)).getTextContent();
      const items = content.items.filter(
        (item): item is FindTextItem & typeof item => 'str' in item,
      );
      const text = pageTextOf(items);
      texts.current.set(number, text);
      return text;
    },
    [doc],
  );

  // Find: every match of the query, after a short pause in typing.
  useEffect(() => {
    if (!doc || !findOpen || query.trim() === '') {
      setMatches(null);
      return;
    }
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void (async () => {
        const all: PageText[] = [];
        for (let number = 1; number <= doc.numPages; number += 1) all.push(await pageText(number));
        if (cancelled) return;
        const found = findMatches(all, query);
        setMatches(found);
        const from = found.findIndex((match) => match.page >= reported.current);
        setMatchIndex(Math.max(0, from));
        setSelectionToken((n) => n + 1);
      })().catch((failure: unknown) => console.warn('Find failed:', failure));
    }, 200);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [doc, findOpen, query, pageText]);

  const currentMatch = matches && matches.length > 0 ? (matches[matchIndex] ?? null) : null;
  useEffect(() => {
    if (currentMatch) goTo(currentMatch.page);
    // Only when the current match changes (the token), not when paging.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectionToken]);

  const stepMatch = (direction: 1 | -1) => {
    if (!matches || matches.length === 0) return;
    setMatchIndex((index) => (index + direction + matches.length) % matches.length);
    setSelectionToken((n) => n + 1);
  };

  const closeFind = () => {
    setFindOpen(false);
    setQuery('');
    setMatches(null);
  };

  const onFindKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      stepMatch(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeFind();
    }
  };

  // The highlights of each page.
  const segmentsByPage = useMemo(() => {
    const byPage = new Map<number, HighlightSegment[]>();
    if (!matches) return byPage;
    const grouped = new Map<number, FindMatch[]>();
    for (const match of matches)
      grouped.set(match.page, [...(grouped.get(match.page) ?? []), match]);
    for (const [number, pageMatches] of grouped) {
      const text = texts.current.get(number);
      if (!text) continue;
      const selected = currentMatch?.page === number ? currentMatch : null;
      byPage.set(number, highlightSegments(text, pageMatches, selected));
    }
    return byPage;
  }, [matches, currentMatch]);

  if (error) {
    return (
      <Alert type="error" showIcon title={VIEWER_MESSAGES.documentFailed} description={error} />
    );
  }
  return (
    <div className="viewer-pdf">
      <div className="viewer-toolbar" role="toolbar" aria-label="Document">
        <Tooltip title={thumbnails ? 'Hide pages' : 'Show pages'}>
          <Button
            size="small"
            icon={<UnorderedListOutlined aria-hidden />}
            aria-label={thumbnails ? 'Hide page thumbnails' : 'Show page thumbnails'}
            aria-pressed={thumbnails}
            onClick={() => setThumbnails((shown) => !shown)}
          />
        </Tooltip>
        <span className="viewer-page-count" aria-live="polite" data-testid="viewer-page-count">
          {numPages > 0 ? `Page ${shownPage} of ${numPages}` : ''}
        </span>
        <Button
          size="small"
          icon={<UpOutlined aria-hidden />}
          aria-label="Previous page"
          disabled={shownPage <= 1}
          onClick={() => goTo((aimed.current ?? shown.current) - 1)}
        />
        <Button
          size="small"
          icon={<DownOutlined aria-hidden />}
          aria-label="Next page"
          disabled={numPages === 0 || shownPage >= numPages}
          onClick={() => goTo((aimed.current ?? shown.current) + 1)}
        />
        <span className="viewer-toolbar-gap" />
        <Button
          size="small"
          icon={<MinusOutlined aria-hidden />}
          aria-label="Zoom out"
          onClick={() => setZoom(zoomed(scale, -1))}
        />
        <span className="viewer-zoom">{`${Math.round(scale * 100)}%`}</span>
        <Button
          size="small"
          icon={<PlusOutlined aria-hidden />}
          aria-label="Zoom in"
          onClick={() => setZoom(zoomed(scale, 1))}
        />
        <Button size="small" aria-pressed={zoom === 'fit'} onClick={() => setZoom('fit')}>
          Fit width
        </Button>
        <span className="viewer-toolbar-gap" />
        <Button
          size="small"
          icon={<SearchOutlined aria-hidden />}
          aria-label="Find in document"
          onClick={openFind}
        />
        {findOpen ? (
          <span className="viewer-find" role="search">
            <Input
              ref={findInput}
              size="small"
              className="viewer-find-input"
              placeholder="Find in document"
              aria-label="Find in document"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={onFindKey}
            />
            <span className="viewer-find-count" aria-live="polite" data-testid="viewer-find-count">
              {matches === null
                ? ''
                : matches.length === 0
                  ? VIEWER_MESSAGES.noMatches
                  : `${matchIndex + 1} of ${matches.length}`}
            </span>
            <Button
              size="small"
              icon={<UpOutlined aria-hidden />}
              aria-label="Previous match"
              onClick={() => stepMatch(-1)}
            />
            <Button
              size="small"
              icon={<DownOutlined aria-hidden />}
              aria-label="Next match"
              onClick={() => stepMatch(1)}
            />
            <Button
              size="small"
              icon={<CloseOutlined aria-hidden />}
              aria-label="Close find"
              onClick={closeFind}
            />
          </span>
        ) : null}
      </div>
      <div className="viewer-pdf-main">
        {thumbnails && doc ? (
          <nav className="viewer-thumbs" aria-label="Pages">
            {Array.from({ length: numPages }, (_, index) => (
              <Thumbnail
                key={index + 1}
                doc={doc}
                number={index + 1}
                current={index + 1 === shownPage}
                onOpen={goTo}
              />
            ))}
          </nav>
        ) : null}
        <div className="viewer-pages" ref={scroller} data-testid="viewer-pages">
          {!doc || !estimate ? (
            <div className="viewer-state" role="status">
              <Spin />
            </div>
          ) : (
            Array.from({ length: numPages }, (_, index) => {
              const number = index + 1;
              return (
                <PdfPage
                  key={number}
                  doc={doc}
                  number={number}
                  scale={scale}
                  estimate={estimate}
                  drawn={number >= near[0] && number <= near[1]}
                  segments={segmentsByPage.get(number) ?? NO_SEGMENTS}
                  selectionToken={selectionToken}
                  register={register}
                />
              );
            })
          )}
        </div>
      </div>
    </div>
  );
}
