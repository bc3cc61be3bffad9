/**
 * Document imaging's derivations on real files (../shared/corpus, ../shared/scans; see
 * their SOURCES.md): LibreOffice renditions of office formats, HTML and SVG; recognition of scans
 * and images; the text layer of born-digital PDFs without recognition. Then the derive job on both
 * databases: derivatives stored under the sha256, reused for the same bytes, a missing tool named
 * with its install command.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { NewFile } from '@server/db/schema';
import { newId } from '@server/ids';
import { findJobForFile } from '@server/repositories/jobs';
import { findRendition } from '@server/repositories/renditions';
import { deriveFrom, deriveHandler, renditionKeys } from '@server/services/imaging/derive';
import { derivationPlan, pngHasTransparency } from '@server/services/imaging/formats';
import { PASSWORD_PDF_REASON } from '@server/services/imaging/pdfText';
import { enqueueDerivations } from '@server/services/imaging/queue';
import { PermanentJobError, startImagingWorker } from '@server/services/imaging/worker';
import { describeEachDatabase, signIn, startTestServer, type TestServer } from './helpers';
import { itWithTools } from './imagingHelpers';
import { fileRow, firmOf, folderRow, insertRows, storeObject, type Firm } from './seedRows';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
const SCANS = path.resolve(__dirname, '../../../shared/scans');
const OFFICE = ['soffice', 'pdftotext', 'pdftoppm'];
const OCR = ['ocrmypdf', 'tesseract', 'pdftotext', 'pdftoppm'];
const SLOW = 180_000;
const options = { timeoutMs: 120_000 };
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** Words (lowercased letters and digits, 3+ long) of a text. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter(Boolean);
}

/** The share of the reference's words the recognised text has (each counted as often as used). */
function recall(reference: string, recognized: string): number {
  const pool = new Map<string, number>();
  for (const word of words(recognized)) pool.set(word, (pool.get(word) ?? 0) + 1);
  const wanted = words(reference);
  let found = 0;
  for (const word of wanted) {
    const left = pool.get(word) ?? 0;
    if (left > 0) {
      found += 1;
      pool.set(word, left - 1);
    }
  }
  return found / wanted.length;
}

/**
 * A multi-page TIFF (8-bit grey, uncompressed, 300 dpi): each page white with a black bar whose
 * length tells the pages apart.
 */
function multiPageTiff(pages: number, width = 240, height = 120): Buffer {
  const entries = 12;
  const ifdSize = 2 + entries * 12 + 4;
  const pageSize = width * height + ifdSize + 16;
  const out = Buffer.alloc(8 + pages * pageSize);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  let at = 8;
  out.writeUInt32LE(at + width * height, 4);
  for (let page = 0; page < pages; page += 1) {
    const pixels = at;
    out.fill(255, pixels, pixels + width * height);
    for (let y = 50; y < 70; y += 1) {
      out.fill(0, pixels + y * width + 20, pixels + y * width + 20 + 60 * (page + 1));
    }
    const ifd = pixels + width * height;
    const rational = ifd + ifdSize;
    const next = page + 1 < pages ? rational + 16 + width * height : 0;
    const tags: [number, number, number][] = [
      [256, 4, width],
      [257, 4, height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, pixels],
      [277, 3, 1],
      [278, 4, height],
      [279, 4, width * height],
      [282, 5, rational],
      [283, 5, rational + 8],
      [296, 3, 2],
    ];
    out.writeUInt16LE(entries, ifd);
    tags.forEach(([tag, type, value], i) => {
      const entry = ifd + 2 + i * 12;
      out.writeUInt16LE(tag, entry);
      out.writeUInt16LE(type, entry + 2);
      out.writeUInt32LE(1, entry + 4);
      if (type === 3) out.writeUInt16LE(value, entry + 8);
      else out.writeUInt32LE(value, entry + 8);
    });
    out.writeUInt32LE(next, ifd + 2 + entries * 12);
    for (const offset of [rational, rational + 8]) {
      out.writeUInt32LE(300, offset);
      out.writeUInt32LE(1, offset + 4);
    }
    at = rational + 16;
  }
  return out.subarray(0, at);
}

/** A PNG chunk: length, type, data and the CRC of type and data (RFC 2083 section 3.2). */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  let crc = 0xffffffff;
  for (const byte of body) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([length, body, sum]);
}

/** A white `width` × `height` PNG of colour type 6 (RGB with alpha), half transparent. */
function rgbaPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 6; // colour type: RGB with alpha
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0xff)]);
  for (let x = 0; x < width / 2; x++) row[1 + x * 4 + 3] = 0;
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('pngHasTransparency', () => {
  it('finds an alpha channel or a tRNS chunk, and nothing in an opaque PNG or another file', () => {
    expect(pngHasTransparency(rgbaPng(4, 4))).toBe(true);
    expect(pngHasTransparency(readFileSync(`${CORPUS}/smile.png`))).toBe(false);
    expect(pngHasTransparency(readFileSync(`${SCANS}/typewriter.png`))).toBe(false);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1, 0);
    header.writeUInt32BE(1, 4);
    header[8] = 8;
    header[9] = 3; // a palette
    const palette = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('PLTE', Buffer.from([255, 255, 255])),
      pngChunk('tRNS', Buffer.from([0])),
      pngChunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    ]);
    expect(pngHasTransparency(palette)).toBe(true);
    expect(
      pngHasTransparency(Buffer.from('%PDF-1.7 not a png at all, long enough to be read')),
    ).toBe(false);
  });
});

describe('derivations of real files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dossier-derive-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Copies a file into the work folder as `original.<ext>` and derives from it by its plan. */
  async function derive(file: string, languages = ['eng']) {
    const extension = path.extname(file).slice(1).toLowerCase();
    const plan = derivationPlan(extension, '');
    if (!plan) throw new Error(`no plan for ${file}`);
    const input = path.join(dir, `original.${extension}`);
    await writeFile(input, await readFile(file));
    const derived = await deriveFrom(plan, input, extension, dir, languages, options);
    expect(derived.thumbnail).not.toBeNull();
    const thumb = await readFile(derived.thumbnail!);
    expect(thumb.subarray(0, 4)).toEqual(PNG_MAGIC);
    // Documents, scans and images always have a text (only a video's derivation has none).
    expect(derived.text).not.toBeNull();
    return { ...derived, text: derived.text! };
  }

  /** Asserts a derived PDF exists and is a PDF. */
  async function expectPdf(file: string | null): Promise<void> {
    expect(file).not.toBeNull();
    expect((await readFile(file!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }

  itWithTools(
    OFFICE,
    'converts docx, odt, rtf, pptx and xlsx to PDF and reads their text',
    async () => {
      const docx = await derive(`${CORPUS}/test.docx`);
      await expectPdf(docx.pdf);
      expect(docx.text.text).toContain('python-docx was here!');
      expect(docx.recognized).toBe(false);
      const odt = await derive(`${CORPUS}/trivial-writer.odt`);
      await expectPdf(odt.pdf);
      expect(odt.text.text).toContain('Lorem ipsum dolor sit amet');
      const rtf = await derive(`${CORPUS}/small-rtf.rtf`);
      await expectPdf(rtf.pdf);
      expect(rtf.text.pages).toBe(1);
      const pptx = await derive(`${CORPUS}/minimal.pptx`);
      await expectPdf(pptx.pdf);
      expect(pptx.text.pages).toBeGreaterThanOrEqual(1);
      const xlsx = await derive(`${CORPUS}/embedded.xlsx`);
      await expectPdf(xlsx.pdf);
      expect(
        words(xlsx.text.text).length + xlsx.text.text.replace(/\s/g, '').length,
      ).toBeGreaterThan(0);
    },
    SLOW,
  );

  itWithTools(
    OFFICE,
    'gives HTML and SVG a PDF rendition; an SVG LibreOffice cannot read gives up with the reason',
    async () => {
      const html = await derive(`${CORPUS}/small-html5.html`);
      await expectPdf(html.pdf);
      const svgFile = path.join(dir, 'drawn.svg');
      await writeFile(
        svgFile,
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">' +
          '<text x="10" y="50" font-size="30">Quarterly review</text>' +
          '<script>alert(1)</script></svg>',
      );
      const svg = await derive(svgFile);
      await expectPdf(svg.pdf);
      expect(svg.text.text).toContain('Quarterly review');
      // The corpus's SVG is an empty <svg/> without a size, which LibreOffice does not load; nor
      // a damaged workbook.
      const empty = derive(`${CORPUS}/small-svg.svg`);
      await expect(empty).rejects.toBeInstanceOf(PermanentJobError);
      await expect(empty).rejects.toThrow('LibreOffice could not read the file');
      const broken = path.join(dir, 'broken.xlsx');
      await writeFile(broken, (await readFile(`${CORPUS}/test.docx`)).subarray(0, 300));
      await expect(derive(broken)).rejects.toThrow('LibreOffice could not read the file');
    },
    SLOW,
  );

  itWithTools(
    OFFICE,
    'converts HTML without fetching the remote or local files it names, keeping its own images',
    async () => {
      const requested: string[] = [];
      const web = createServer((request, response) => {
        requested.push(request.url ?? '');
        response.end('body { color: red }');
      });
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      const { port } = web.address() as AddressInfo;
      try {
        const page = path.join(dir, 'page.html');
        await writeFile(
          page,
          `<html><head><link rel="stylesheet" href="http://127.0.0.1:${port}/style.css"></head>` +
            `<body><p>Engagement letter</p><img src="http://127.0.0.1:${port}/pixel.png"></body></html>`,
        );
        const html = await derive(page);
        await expectPdf(html.pdf);
        expect(html.text.text).toContain('Engagement letter');
        expect(requested).toEqual([]);
        // A file of the server named by the page is not embedded; an image inside the page is.
        const png = await readFile(`${CORPUS}/smile.png`);
        const local = path.join(dir, 'local.html');
        await writeFile(
          local,
          `<html><body><p>Local</p><img src="file://${CORPUS}/smile.png">` +
            `<img src="${CORPUS}/smile.png"></body></html>`,
        );
        const imagesIn = async (pdf: string | null) =>
          ((await readFile(pdf!)).toString('latin1').match(/\/Subtype\s*\/Image/g) ?? []).length;
        expect(await imagesIn((await derive(local)).pdf)).toBe(0);
        const inline = path.join(dir, 'inline.html');
        await writeFile(
          inline,
          `<html><body><p>Inline</p><img src="data:image/png;base64,${png.toString('base64')}">` +
            '</body></html>',
        );
        expect(await imagesIn((await derive(inline)).pdf)).toBe(1);
      } finally {
        await new Promise((resolve) => web.close(resolve));
      }
    },
    SLOW,
  );

  itWithTools(
    ['soffice', ...OCR],
    'makes TIFF (multi-page too), BMP and GIF into searchable PDF pages',
    async () => {
      for (const name of ['smile.tiff', 'small-bmp.bmp', 'small-gif.gif']) {
        const image = await derive(`${CORPUS}/${name}`);
        await expectPdf(image.pdf);
        expect(image.recognized).toBe(true);
        expect(image.text.pages).toBe(1);
      }
      const scan = path.join(dir, 'three-pages.tif');
      await writeFile(scan, multiPageTiff(3));
      const pages = await derive(scan);
      await expectPdf(pages.pdf);
      expect(pages.text.pages).toBe(3);
    },
    SLOW,
  );

  itWithTools(
    OCR,
    'takes the text layer of born-digital PDFs without recognition',
    async () => {
      const four = await derive(`${CORPUS}/pdflatex-4-pages.pdf`);
      expect(four.pdf).toBeNull();
      expect(four.recognized).toBe(false);
      expect(four.text.pages).toBe(4);
      expect(four.text.visibleChars).toBeGreaterThan(100);
      const locked = derive(`${CORPUS}/libreoffice-writer-password.pdf`);
      await expect(locked).rejects.toThrow(PASSWORD_PDF_REASON);
    },
    SLOW,
  );

  itWithTools(
    OCR,
    'recognises a scanned page (linn.pdf) close to its reference text, as a searchable PDF',
    async () => {
      const linn = await derive(`${SCANS}/linn.pdf`);
      await expectPdf(linn.pdf);
      expect(linn.recognized).toBe(true);
      const reference = readFileSync(`${SCANS}/linn.txt`, 'utf8');
      expect(recall(reference, linn.text.text)).toBeGreaterThan(0.9);
      expect(linn.text.text).toContain('LinnSequencer');
    },
    SLOW,
  );

  itWithTools(
    [...OCR, 'soffice'],
    'recognises an image with an alpha channel (laid on a page first: OCRmyPDF refuses alpha)',
    async () => {
      const source = path.join(dir, 'screenshot.png');
      await writeFile(source, rgbaPng(400, 200));
      const derived = await derive(source);
      await expectPdf(derived.pdf);
      expect(derived.recognized).toBe(true);
    },
    SLOW,
  );

  itWithTools(
    OCR,
    'recognises a skewed scan and a photographed typewriter page',
    async () => {
      const skew = await derive(`${SCANS}/skew.pdf`);
      expect(skew.recognized).toBe(true);
      expect(recall(readFileSync(`${SCANS}/linn.txt`, 'utf8'), skew.text.text)).toBeGreaterThan(
        0.8,
      );
      const typewriter = await derive(`${SCANS}/typewriter.png`);
      await expectPdf(typewriter.pdf);
      expect(typewriter.text.visibleChars).toBeGreaterThan(20);
    },
    SLOW,
  );
});

describeEachDatabase('derive job', (kind) => {
  let server: TestServer;
  let firm: Firm;
  let folderId: string;
  const silentLog = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  } as never;

  beforeAll(async () => {
    server = await startTestServer(kind);
    firm = await firmOf(server, await signIn(server));
    const folder = folderRow(firm, '', 'Derived');
    folderId = folder.id;
    await insertRows(server, { folders: [folder] });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Records a ready file with these bytes (object in the store) and queues its job. */
  async function recorded(name: string, body: Buffer | null): Promise<NewFile> {
    const file = fileRow(firm, folderId, `${newId()}-${name}`);
    if (body) await storeObject(server, file, body);
    await insertRows(server, { files: [file] });
    await enqueueDerivations(server.services, [
      {
        databaseId: firm.databaseId,
        id: file.id,
        extension: file.extension,
        contentType: file.content_type,
        sha256: null,
      },
    ]);
    return file;
  }

  /** Runs the queue with the real handler until it is idle. */
  async function runQueue(): Promise<void> {
    const worker = startImagingWorker(server.services, silentLog, deriveHandler(server.services), {
      pollMs: 100,
    });
    await worker.idle();
    await worker.stop();
  }

  const jobOf = async (file: NewFile) =>
    (await findJobForFile(server.services.db, 'derive', file.id))!;

  itWithTools(
    OFFICE,
    'stores the rendition, text and thumbnail under the sha256 and reuses them for the same bytes',
    async () => {
      const bytes = await readFile(`${CORPUS}/test.docx`);
      const first = await recorded('memo.docx', bytes);
      await runQueue();
      const job = await jobOf(first);
      expect(job).toMatchObject({ state: 'done', attempts: 1, last_error: null });
      const sha256 = job.sha256!;
      expect(sha256).toMatch(/^[0-9a-f]{64}$/);
      const keys = renditionKeys(sha256);
      const rendition = (await findRendition(server.services.db, sha256))!;
      expect(rendition).toMatchObject({
        source_kind: 'office',
        pdf_key: keys.pdf,
        text_key: keys.text,
        thumbnail_key: keys.thumbnail,
        recognized: 0,
      });
      const text = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        server.store
          .read(keys.text)
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
          .on('error', reject);
      });
      expect(text).toContain('python-docx was here!');
      expect((await server.store.head(keys.pdf))!.size).toBeGreaterThan(1000);
      // A copy of the same bytes is done at once with the same derivatives.
      const copy = await recorded('memo copy.docx', bytes);
      const started = Date.now();
      await runQueue();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await jobOf(copy)).toMatchObject({ state: 'done', sha256 });
      expect((await findRendition(server.services.db, sha256))!.created_at).toBe(
        rendition.created_at,
      );
    },
    SLOW,
  );

  itWithTools(
    OFFICE,
    'gives up at once when the object is missing or LibreOffice is not installed',
    async () => {
      const lost = await recorded('lost.docx', null);
      const noTool = await recorded('other.odt', await readFile(`${CORPUS}/trivial-writer.odt`));
      const path = process.env.PATH;
      process.env.PATH = '/nonexistent';
      try {
        await runQueue();
      } finally {
        process.env.PATH = path;
      }
      expect(await jobOf(lost)).toMatchObject({
        state: 'failed',
        attempts: 1,
        last_error: "The file's stored object is missing.",
      });
      expect(await jobOf(noTool)).toMatchObject({ state: 'failed', attempts: 1 });
      expect((await jobOf(noTool)).last_error).toMatch(
        /^LibreOffice not found \(needed for .*\): apt-get install -y libreoffice-writer-nogui/,
      );
    },
    SLOW,
  );
});
