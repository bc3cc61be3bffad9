/**
 * The activity history end to end: do ten different things that exist today (sign in,
 * create a folder and a sub-folder, upload two files, download, preview and print, sign out and
 * in again, export), see each on the History page with its words, open one folder's history from
 * its row, filter by an activity type and by "Today" (and keep the filters across a reload),
 * export and read the CSV, and find the export itself in the history.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseCsv } from '../__tests__/csv';
import { createFolder, openFolderLink } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

test.use({ viewport: { width: 1400, height: 1600 } });

test('ten things done are in the history, filterable and exportable', async ({ page }) => {
  const stamp = Date.now();
  const parent = `History client ${stamp}`;
  const child = `Tax returns ${stamp}`;
  const rows = page.getByTestId('history-row');

  // 1. Sign in.
  await signIn(page);
  // 2. Create a folder, open it, 3. create a sub-folder in it.
  await page.goto('/home');
  await createFolder(page, parent);
  await openFolderLink(page, parent);
  // The URL changes before the folder's page renders; until then its toolbar acts on the root.
  await expect(page.getByRole('heading', { level: 1, name: parent })).toBeVisible();
  await createFolder(page, child);
  // 4 and 5. Upload two files.
  await page
    .getByLabel('Upload files')
    .setInputFiles(['test.docx', 'minimal-document.pdf'].map((n) => path.join(CORPUS, n)));
  await expect(page.getByTestId('entity-row')).toHaveCount(3, { timeout: 60_000 });
  // 6. Download one.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download test.docx' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('test.docx');
  // Move the pointer away so the button's tooltip does not cover the row above.
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip', { name: 'Download' })).toBeHidden();
  // 7. Preview the PDF (in the viewer), 8. print it (the print address the app serves).
  const [preview] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/preview') && r.request().method() === 'GET'),
    page.getByRole('button', { name: 'Preview minimal-document.pdf' }).click(),
  ]);
  expect(preview.status()).toBe(200);
  await expect(page.getByRole('dialog', { name: 'minimal-document.pdf' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'minimal-document.pdf' })).toBeHidden();
  const pdfRow = page.getByTestId('entity-row').filter({ hasText: 'minimal-document.pdf' });
  const pdfId = await pdfRow.getAttribute('data-entity-id');
  const printed = await page.request.get(`/api/rest/files/${pdfId}/print`);
  expect(printed.status()).toBe(200);

  // The folder's own history, from the History action of its row.
  await page.goto('/home');
  await page.getByRole('button', { name: `History of ${parent}` }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByText(`History of "${parent}"`)).toBeVisible();
  await expect(panel.getByTestId('history-row')).toHaveCount(1);
  await expect(panel.getByTestId('history-row')).toContainText(`added folder "${parent}"`);
  await panel.getByRole('button', { name: /close/i }).click();

  // 9. Sign out, 10. sign in again.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signIn(page);

  // Every one of them is on the History page, newest first, in words.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'History' })
    .click();
  await expect(page).toHaveURL(/\/history$/);
  const expected = [
    'Demo Administrator logged in',
    'Demo Administrator logged out',
    'Demo Administrator printed file "minimal-document.pdf"',
    'Demo Administrator previewed file "minimal-document.pdf"',
    'Demo Administrator downloaded file "test.docx"',
    'Demo Administrator added file "minimal-document.pdf"',
    'Demo Administrator added file "test.docx"',
    `Demo Administrator added folder "${child}"`,
    `Demo Administrator added folder "${parent}"`,
    'Demo Administrator logged in',
  ];
  await expect(rows.first()).toContainText(expected[0]!);
  const summaries = await rows.locator('.history-summary').allTextContents();
  expect(summaries.slice(0, 5)).toEqual(expected.slice(0, 5));
  // Both files are uploaded together: their two events may come in either order.
  expect(summaries.slice(5, 7).sort()).toEqual(expected.slice(5, 7).sort());
  expect(summaries.slice(7, 10)).toEqual(expected.slice(7, 10));
  await expect(rows.filter({ hasText: `added folder "${child}"` })).toContainText(`in "${parent}"`);
  await expect(rows.first()).toContainText('Just Now');
  await expect(page.getByTestId('history-stats')).toContainText('Last 30 days');

  // Filter by an activity type: only additions remain, and the URL says so.
  await page.getByRole('combobox', { name: 'Activity types' }).click();
  await page.getByTitle('Added', { exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/history\?type=added$/);
  // The list is empty while it reloads: first wait for the filtered rows, then check none is a
  // login or logout.
  const onlyAdded = async () => {
    const shown = await rows.locator('.history-summary').allTextContents();
    return shown.length > 0 && shown.every((s) => s.includes(' added '));
  };
  await expect.poll(onlyAdded).toBe(true);
  await expect(rows.filter({ hasText: 'logged' })).toHaveCount(0);
  await expect(rows.filter({ hasText: `added folder "${parent}"` })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'added file "test.docx"' }).first()).toBeVisible();

  // And by "Today".
  await page.getByRole('combobox', { name: 'Date' }).click();
  await page.getByTitle('Today', { exact: true }).click();
  await expect(page).toHaveURL(/\/history\?date=today&type=added$/);
  await expect(page.getByTestId('history-stats')).toContainText('Today');
  // The stats may answer before the list: wait for the list's rows (it is empty while it reloads).
  const addedRows = rows.locator('.history-summary');
  await expect
    .poll(async () => (await addedRows.allTextContents()).length)
    .toBeGreaterThanOrEqual(4);
  const added = await addedRows.allTextContents();
  expect(added.every((s) => s.includes(' added '))).toBe(true);

  // The filtered view survives a reload.
  await page.reload();
  await expect(page).toHaveURL(/\/history\?date=today&type=added$/);
  await expect(rows.filter({ hasText: `added folder "${child}"` })).toHaveCount(1);
  await expect.poll(onlyAdded).toBe(true);
  await expect(rows.filter({ hasText: 'logged' })).toHaveCount(0);

  // Export the filtered view and read the CSV.
  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  const fileName = csvDownload.suggestedFilename();
  expect(fileName).toMatch(/^history_\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parseCsv(readFileSync(await csvDownload.path(), 'utf8'));
  const header = records[0]!;
  expect(header.slice(0, 6)).toEqual([
    'id',
    'created_at',
    'user',
    'user_id',
    'activity',
    'summary',
  ]);
  const body = records.slice(1);
  // The list is virtualised: compare with its count line, and with the rows it rendered.
  const countLine = (await page.locator('.history-summary-line').textContent()) ?? '';
  expect(body).toHaveLength(Number(countLine.replace(/\D/g, '')));
  const column = (name: string) => body.map((r) => r[header.indexOf(name)]);
  expect(new Set(column('activity'))).toEqual(new Set(['Added']));
  expect(column('summary').slice(0, added.length)).toEqual(added);
  expect(column('summary')).toEqual(
    expect.arrayContaining([
      `Demo Administrator added folder "${parent}"`,
      `Demo Administrator added folder "${child}"`,
      'Demo Administrator added file "test.docx"',
      'Demo Administrator added file "minimal-document.pdf"',
    ]),
  );
  await expect(page.getByText(`Exported ${fileName}`)).toBeVisible();

  // The export is itself in the history, as a download.
  await page.goto('/history?type=downloaded');
  await expect(rows.first()).toContainText('Demo Administrator exported the activity history');
  await expect(rows.first()).toContainText(fileName);
  await expect(rows.filter({ hasText: 'downloaded file "test.docx"' }).first()).toBeVisible();
});
