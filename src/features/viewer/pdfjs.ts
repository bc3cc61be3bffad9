/**
 * pdf.js, set up for the app's Content-Security-Policy (`script-src 'self'`): the worker is a
 * same-origin file Vite emits beside the app's chunks (`?url`), so no blob: or eval is needed
 * (pdf.js 6 no longer compiles fonts or functions with eval at all). Loaded by PdfView with a
 * dynamic import, so pdf.js is its own chunk, fetched only when a PDF is shown.
 */
import { getDocument, GlobalWorkerOptions, TextLayer } from 'pdfjs-dist';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Where the build puts pdf.js's character maps and standard fonts (scripts/vite/pdfjsAssets.ts). */
const PDFJS_ASSETS = '/pdfjs/';

/**
 * Starts reading a PDF from a file address of the app (cookies included: same origin).
 * - `disableRange`: one request for the whole file, so the preview is one read in the history
 *   (each ranged request would be recorded as a read of its own).
 * - `useWasm: false`: no WebAssembly decoders (they would need 'wasm-unsafe-eval').
 * - `isOffscreenCanvasSupported: true` stays the default; fonts load as FontFace from bytes.
 * - `cMapUrl` and `standardFontDataUrl`: pdf.js's character maps and the data of the 14 standard
 *   fonts, which the build copies under /pdfjs/ (scripts/vite/pdfjsAssets.ts): text encoded with a
 *   predefined CMap (common in Chinese, Japanese and Korean PDFs) and standard fonts a PDF names
 *   without embedding them are drawn as the document means.
 * @param url the preview address (`/api/rest/files/{id}/preview`, or a share's)
 * @returns pdf.js's loading task (`.promise` gives the document; `.destroy()` stops it)
 */
export function loadPdf(url: string): PDFDocumentLoadingTask {
  return getDocument({
    url,
    disableRange: true,
    useWasm: false,
    stopAtErrors: false,
    cMapUrl: `${PDFJS_ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_ASSETS}standard_fonts/`,
  });
}

export { TextLayer };
export type {
  PDFDocumentProxy,
  PDFPageProxy,
  TextContent,
  TextItem,
} from 'pdfjs-dist/types/src/display/api';
