/**
 * The in-app viewer in Chromium: a Word document from ../shared/corpus is uploaded and opened by
 * its name; "Preparing preview…" turns into its page once LibreOffice has made the PDF rendition
 * (no reload); a word is found and highlighted; the next file of the folder (a 4-page PDF) is
 * paged with the keyboard; a reload on the deep link shows the same page; Escape goes back to the
 * folder. No Content-Security-Policy violation (the pdf.js worker is a same-origin script).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { VIEWER_MESSAGES, type FileRenditionDto } from '@common/imaging';
import { createFolder, expectUploadedRows, openFolderLink } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const SCANS = path.resolve(import.meta.dirname, '../../shared/scans');
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

test.use({ viewport: { width: 1280, height: 900 } });

/**
 * The same Office document with a zip comment of its own, so its bytes (and sha256) are new to
 * the server and its rendition is made while the test watches, whatever ran before.
 */
function withZipComment(zip: Buffer, comment: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt16LE(end + 20) !== 0) throw new Error('not a zip without a comment');
  const text = Buffer.from(comment, 'latin1');
  const out = Buffer.concat([zip, text]);
  out.writeUInt16LE(text.length, end + 20);
  return out;
}

test('views a Word document and a PDF: prepared, found, paged, deep-linked, closed', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /fake worker/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  // pdf.js runs in its worker, a same-origin script (the CSP allows nothing else).
  const worker = page.waitForResponse((r) => /\/assets\/pdf\.worker[^/]*\.mjs$/.test(r.url()));
  await signIn(page);
  const folderName = `Viewer ${Date.now()}`;
  await createFolder(page, folderName);
  await openFolderLink(page, folderName);
  const folderUrl = page.url();

  // The Word document under a name listed before the PDF, so the PDF is its next file.
  await page.getByLabel('Upload files').setInputFiles([
    {
      name: 'Annual letter.docx',
      mimeType: DOCX,
      buffer: withZipComment(readFileSync(path.join(CORPUS, 'test.docx')), `viewer ${Date.now()}`),
    },
    {
      name: 'pdflatex-4-pages.pdf',
      mimeType: 'application/pdf',
      buffer: readFileSync(path.join(CORPUS, 'pdflatex-4-pages.pdf')),
    },
  ]);
  await expectUploadedRows(page, 2, 60_000);

  // Opened by its name: the rendition is being made, then its page is shown. On a quiet machine
  // LibreOffice may finish before the viewer opens, so the rendition's answers say "running" (as a
  // busier machine's would) until the viewer has shown that it is preparing; its next poll then
  // gets the real answer.
  const renditions = '**/api/rest/files/*/rendition';
  await page.route(renditions, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as FileRenditionDto;
    await route.fulfill({
      response,
      json: { ...body, state: 'running', pdf: false, thumbnail: false, page_count: null },
    });
  });
  await page.getByRole('link', { name: 'Annual letter.docx', exact: true }).click();
  const letter = page.getByRole('dialog', { name: 'Annual letter.docx' });
  await expect(letter).toBeVisible();
  await expect(page).toHaveURL(/[?&]view=file%3A[0-9a-f-]+/);
  await expect(letter.getByText(VIEWER_MESSAGES.preparing)).toBeVisible();
  await page.unroute(renditions);
  await expect(letter.getByTestId('viewer-page-count')).toHaveText('Page 1 of 1', {
    timeout: 120_000,
  });
  await expect(letter.getByText(VIEWER_MESSAGES.preparing)).toBeHidden();
  const workerScript = await worker;
  expect(workerScript.status()).toBe(200);
  expect(workerScript.headers()['content-type']).toMatch(/javascript/);
  await expect(letter.getByRole('navigation', { name: 'Folder path' })).toContainText(folderName);
  // The text layer carries the document's words (so they can be selected).
  await expect(letter.locator('.viewer-text-layer')).toContainText('python-docx was here');

  // Find: Ctrl+F opens the box; every match is counted, the current one highlighted.
  await page.keyboard.press('Control+f');
  const find = letter.getByRole('textbox', { name: 'Find in document' });
  await expect(find).toBeFocused();
  // The document reads "python-docx was here!" and "python-docx was here too!".
  await find.fill('Was Here');
  const count = letter.getByTestId('viewer-find-count');
  await expect(count).toHaveText('1 of 2');
  await expect(letter.locator('.viewer-highlight')).toHaveCount(2);
  await expect(letter.locator('.viewer-highlight-selected')).toHaveText('was here');
  await find.press('Enter');
  await expect(count).toHaveText('2 of 2');
  await find.fill('nowhere to be found');
  await expect(count).toHaveText(VIEWER_MESSAGES.noMatches);
  await find.press('Escape');
  await expect(find).toBeHidden();
  await expect(letter).toBeVisible();

  // The next file of the folder: the PDF, paged with the keyboard.
  await letter.getByRole('button', { name: 'Next file' }).click();
  const pdf = page.getByRole('dialog', { name: 'pdflatex-4-pages.pdf' });
  const pages = pdf.getByTestId('viewer-page-count');
  await expect(pages).toHaveText('Page 1 of 4', { timeout: 30_000 });
  await page.keyboard.press('PageDown');
  await expect(pages).toHaveText('Page 2 of 4');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await page.keyboard.press('End');
  await expect(pages).toHaveText('Page 4 of 4');
  await page.keyboard.press('ArrowLeft');
  await expect(pages).toHaveText('Page 3 of 4');
  await expect(page).toHaveURL(/[?&]page=3(&|$)/);
  await page.keyboard.press('Home');
  await expect(pages).toHaveText('Page 1 of 4');
  // Two presses before the scrolling settles move two pages.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(pages).toHaveText('Page 3 of 4');
  await expect(page).toHaveURL(/[?&]page=3(&|$)/);
  await expect(pdf.locator('.viewer-page[data-page-number="3"] canvas')).toBeVisible();

  // A reload on the deep link shows the same file at the same page.
  await page.reload();
  await expect(pdf).toBeVisible();
  await expect(pages).toHaveText('Page 3 of 4', { timeout: 30_000 });
  await expect(page).toHaveURL(/[?&]page=3(&|$)/);

  // Escape closes it: back to the folder.
  await page.keyboard.press('Escape');
  await expect(pdf).toBeHidden();
  await expect(page).toHaveURL(folderUrl);
  await expect(page.getByTestId('entity-row')).toHaveCount(2);
  expect(
    problems.filter((text) => /Content.Security.Policy|Refused|fake worker/i.test(text)),
  ).toEqual([]);
});

test('prepares a presentation, a spreadsheet and a scan, and finds the scan by a word inside it', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  const folderName = `Imaging ${Date.now()}`;
  await createFolder(page, folderName);
  await openFolderLink(page, folderName);

  // Names that do not contain the scan's words, so only its recognised text can match.
  await page.getByLabel('Upload files').setInputFiles([
    {
      name: 'Board deck.pptx',
      mimeType: '',
      buffer: readFileSync(path.join(CORPUS, 'minimal.pptx')),
    },
    {
      name: 'Holdings.xlsx',
      mimeType: '',
      buffer: readFileSync(path.join(CORPUS, 'embedded.xlsx')),
    },
    {
      name: 'Statement scan.pdf',
      mimeType: 'application/pdf',
      buffer: readFileSync(path.join(SCANS, 'linn.pdf')),
    },
  ]);
  await expectUploadedRows(page, 3, 60_000);

  // Each opens in the viewer: "Preparing preview…" (or at once when ready), then its pages.
  for (const name of ['Board deck.pptx', 'Holdings.xlsx', 'Statement scan.pdf']) {
    await page.getByRole('link', { name, exact: true }).click();
    const viewer = page.getByRole('dialog', { name });
    await expect(viewer.getByTestId('viewer-page-count')).toHaveText(/^Page 1 of \d+$/, {
      timeout: 180_000,
    });
    await expect(viewer.locator('.viewer-page canvas').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
  }

  // The scan's words are found once recognition stored its text: "polyphonic" is only in it.
  const hit = page.locator('.search-result-snippet').first();
  await expect(async () => {
    await page.goto('/search?q=polyphonic');
    await expect(hit).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 180_000, intervals: [3_000] });
  await expect(page.getByText('Statement scan.pdf').first()).toBeVisible();
  await expect(hit.locator('mark').first()).toHaveText(/polyphonic/i);
  await expect(hit).toContainText('Page 1');
  // The snippet opens the viewer on its page.
  await hit.click();
  await expect(page.getByRole('dialog', { name: 'Statement scan.pdf' })).toBeVisible();
  await expect(page).toHaveURL(/[?&]view=file%3A[0-9a-f-]+/);
});
