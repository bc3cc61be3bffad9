// The PDF view's page keys (Testing Library, pdf.js replaced by a fake document of five pages):
// quick presses go on from the page last gone to, not from the page the scrolling has reached so
// far, so N presses of ArrowRight before the scrolling settles move N pages (within the document);
// once the reader scrolls by themselves, the keys go on from the page the view shows.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { PdfView } from '@src/features/viewer/components/PdfView';

/** Height of a fake page's box and of the scrolling column's view, in CSS pixels. */
const PAGE_HEIGHT = 1000;
const VIEW_HEIGHT = 800;
const PAGES = 5;

// pdf.js does not run in jsdom: a document of PAGES pages whose drawing does nothing.
jest.mock('../../../../src/features/viewer/pdfjs', () => {
  const page = {
    getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
    render: () => ({ promise: Promise.resolve(), cancel: () => undefined }),
    streamTextContent: () => ({}),
    getTextContent: () => Promise.resolve({ items: [] }),
  };
  const doc = { numPages: 5, getPage: () => Promise.resolve(page) };
  class TextLayer {
    textDivs: HTMLElement[] = [];
    textContentItemsStr: string[] = [];
    render() {
      return Promise.resolve();
    }
    cancel() {}
  }
  return {
    loadPdf: () => ({ promise: Promise.resolve(doc), destroy: () => Promise.resolve() }),
    TextLayer,
  };
});

/** Lays the fake pages out one under the other (jsdom has no layout). */
function layOut(): void {
  jest.spyOn(HTMLElement.prototype, 'offsetTop', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    const number = Number(this.dataset.pageNumber ?? 0);
    return number > 0 ? 16 + (number - 1) * PAGE_HEIGHT : 0;
  });
  jest.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.pageNumber ? PAGE_HEIGHT - 16 : 0;
  });
  jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(VIEW_HEIGHT);
}

/** The view with its address: the pages it asked for, in order. */
function Harness({ asked }: { asked: number[] }) {
  const [page, setPage] = useState(1);
  return (
    <PdfView
      url="/api/rest/files/f1/preview"
      page={page}
      onPageChange={(next) => {
        asked.push(next);
        setPage(next);
      }}
    />
  );
}

/** The view with an address the test moves (`setAddress`), as a router that answers late would. */
function LateAddress({
  asked,
  expose,
}: {
  asked: number[];
  expose: (setAddress: (page: number) => void) => void;
}) {
  const [page, setPage] = useState(1);
  expose(setPage);
  return (
    <PdfView
      url="/api/rest/files/f1/preview"
      page={page}
      onPageChange={(next) => asked.push(next)}
    />
  );
}

/** The scrolling column scrolled to `top` by something other than the view (smooth scrolling,
 * the reader), then one animation frame. */
async function scrolledTo(top: number): Promise<void> {
  const column = screen.getByTestId('viewer-pages');
  column.scrollTop = top;
  fireEvent.scroll(column);
  await act(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
  });
}

const count = () => screen.getByTestId('viewer-page-count');

/** A page key, and the scroll event the browser fires for the view's own scrolling to it. */
function press(key: string): void {
  fireEvent.keyDown(document, { key });
  fireEvent.scroll(screen.getByTestId('viewer-pages'));
}

describe('PdfView page keys', () => {
  beforeEach(layOut);
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('moves one page per quick ArrowRight, even while the scrolling is still on the first', async () => {
    const asked: number[] = [];
    render(<Harness asked={asked} />);
    expect(await screen.findByText(`Page 1 of ${PAGES}`)).toBeInTheDocument();

    press('ArrowRight');
    // The column is still scrolling towards page 2: its position names page 1.
    await scrolledTo(300);
    press('ArrowRight');
    await scrolledTo(900);
    press('ArrowRight');

    expect(asked).toEqual([2, 3, 4]);
    expect(count()).toHaveTextContent(`Page 4 of ${PAGES}`);
    // Bounded by the page count.
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowRight');
    expect(asked.at(-1)).toBe(PAGES);
    expect(count()).toHaveTextContent(`Page ${PAGES} of ${PAGES}`);
    press('ArrowLeft');
    press('ArrowLeft');
    expect(asked.at(-1)).toBe(PAGES - 2);
  });

  it('goes on from the page the view shows once the reader scrolled by themselves', async () => {
    const asked: number[] = [];
    render(<Harness asked={asked} />);
    expect(await screen.findByText(`Page 1 of ${PAGES}`)).toBeInTheDocument();
    press('ArrowRight');
    expect(asked).toEqual([2]);

    const column = screen.getByTestId('viewer-pages');
    fireEvent.wheel(column);
    await scrolledTo(16 + 3 * PAGE_HEIGHT);
    expect(count()).toHaveTextContent(`Page 4 of ${PAGES}`);
    press('ArrowLeft');
    expect(asked.at(-1)).toBe(3);
  });

  it('asks again for the page last gone to when an earlier key press’s address arrives last', async () => {
    const asked: number[] = [];
    let setAddress: (page: number) => void = () => undefined;
    render(<LateAddress asked={asked} expose={(set) => (setAddress = set)} />);
    expect(await screen.findByText(`Page 1 of ${PAGES}`)).toBeInTheDocument();
    press('ArrowRight');
    press('ArrowRight');
    expect(asked).toEqual([2, 3]);
    // The address of the second press arrives first, then the first press's.
    act(() => setAddress(3));
    act(() => setAddress(2));
    expect(asked.at(-1)).toBe(3);
    expect(count()).toHaveTextContent(`Page 3 of ${PAGES}`);
    act(() => setAddress(3));
    expect(count()).toHaveTextContent(`Page 3 of ${PAGES}`);
  });
});
