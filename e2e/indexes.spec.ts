/**
 * Index fields, applied indexes, search, missing indexes and contacts in Chromium against
 * the real server: an administrator creates the index fields "Tax year" (number) and "Document
 * type" (list), applies them to three uploaded documents of ../shared/corpus/ (one value in bulk,
 * the others from each file's side panel), finds one document by typing part of its index value in
 * the header search box, lists the files missing "Tax year", imports a CRM contact from CSV, links
 * it to the folder from the folder's side panel and sees it there and in History.
 */
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { FolderDto } from '@common/entities';
import { openDetailsFromRow } from './rowMenu';
import { settled } from './dialogs';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const DOCUMENTS = ['minimal-document.pdf', 'pdflatex-4-pages.pdf', 'small-rtf.rtf'];

test.use({ viewport: { width: 1400, height: 1400 } });

/** The row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Closes the side panel (it covers the rows). */
async function closeDetails(page: Page): Promise<void> {
  const panel = page.getByTestId('details-panel');
  await panel.getByRole('button', { name: 'Close' }).first().click();
  await expect(panel).toBeHidden();
}

/** Chooses an option of an open antd select by its exact text. */
async function chooseOption(page: Page, text: string): Promise<void> {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .click();
}

/** Creates an index field from the admin tab's dialog. */
async function createField(
  page: Page,
  name: string,
  typeLabel: string,
  values: string[] = [],
): Promise<void> {
  await page.getByRole('button', { name: 'Create index field' }).click();
  const dialog = await settled(page.getByRole('dialog', { name: 'Create index field' }));
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await chooseOption(page, typeLabel);
  for (const value of values) {
    await dialog.getByRole('textbox', { name: 'New value' }).fill(value);
    await dialog.getByRole('textbox', { name: 'New value' }).press('Enter');
  }
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('group', { name: 'Index field list' }).getByRole('listitem', { name }),
  ).toBeVisible();
}

test('index fields applied to documents, found by index value, missing list, linked contact', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const taxYear = 'Tax year';
  const docType = 'Document type';
  const rareValue = `Correspondence${stamp}`;
  await signIn(page);

  // The administrator creates the two fields in Admin → Index fields.
  await page.goto('/admin/index-fields');
  await expect(page.getByRole('button', { name: 'Create index field' })).toBeVisible();
  await createField(page, taxYear, 'Number');
  await createField(page, docType, 'List of values', ['Invoice', 'Statement', rareValue]);

  // Three documents uploaded into a new folder.
  const created = await page.request.post('/api/rest/folders', {
    data: { name: `Indexed ${stamp}`, parent_id: '' },
  });
  expect(created.status()).toBe(201);
  const folder = (await created.json()) as FolderDto;
  await page.goto(`/home/folders/${folder.id}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
  await page
    .getByLabel('Upload files')
    .setInputFiles(DOCUMENTS.map((name) => path.join(CORPUS, name)));
  for (const name of DOCUMENTS) {
    await expect(row(page, name)).toHaveCount(1, { timeout: 60_000 });
  }

  // Bulk: "Document type" = Invoice on all three, in one call.
  for (const name of DOCUMENTS)
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(toolbar).toContainText('3 items selected');
  await toolbar.getByRole('button', { name: /Index values/ }).click();
  const bulk = await settled(page.getByRole('dialog', { name: 'Apply index values to 3 files' }));
  await bulk.getByRole('combobox', { name: 'Add an index field' }).click();
  await chooseOption(page, docType);
  await bulk.getByRole('combobox', { name: docType }).click();
  await chooseOption(page, 'Invoice');
  await bulk.getByRole('button', { name: 'Apply' }).click();
  await expect(bulk).toBeHidden();
  await expect(page.getByText('Index values applied to 3 files.')).toBeVisible();
  await toolbar.getByRole('button', { name: 'Clear selection' }).click();

  // From each side panel: a tax year for two documents, and the rare type for the first.
  const first = await openDetailsFromRow(page, DOCUMENTS[0]!);
  const values = first.getByRole('list', { name: 'Applied index values' });
  await expect(values.getByRole('listitem', { name: `${docType}: Invoice` })).toBeVisible();
  await first.getByRole('combobox', { name: 'Add an index field' }).click();
  await chooseOption(page, taxYear);
  await first.getByRole('textbox', { name: taxYear }).fill('2021');
  await first.getByRole('button', { name: 'Apply' }).click();
  await expect(values.getByRole('listitem', { name: `${taxYear}: 2021` })).toBeVisible();
  await first.getByRole('button', { name: `Change ${docType}` }).click();
  await first.getByRole('combobox', { name: `New value of ${docType}` }).click();
  await chooseOption(page, rareValue);
  await first.getByRole('button', { name: `Save ${docType}` }).click();
  await expect(values.getByRole('listitem', { name: `${docType}: ${rareValue}` })).toBeVisible();

  await closeDetails(page);
  const second = await openDetailsFromRow(page, DOCUMENTS[1]!);
  await expect(
    second
      .getByRole('list', { name: 'Applied index values' })
      .getByRole('listitem', { name: `${docType}: Invoice` }),
  ).toBeVisible();
  await second.getByRole('combobox', { name: 'Add an index field' }).click();
  await chooseOption(page, taxYear);
  await second.getByRole('textbox', { name: taxYear }).fill('2022');
  await second.getByRole('textbox', { name: taxYear }).press('Enter');
  await expect(
    second
      .getByRole('list', { name: 'Applied index values' })
      .getByRole('listitem', { name: `${taxYear}: 2022` }),
  ).toBeVisible();

  await closeDetails(page);

  // Typing part of the rare index value in the header finds the first document.
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.click();
  await box.fill(rareValue.slice(0, 12));
  const suggestion = page.getByRole('option', { name: new RegExp(DOCUMENTS[0]!) });
  await expect(suggestion).toBeVisible();
  await expect(suggestion).toContainText(folder.name);
  await expect(page.getByRole('option', { name: new RegExp(DOCUMENTS[1]!) })).toHaveCount(0);
  await box.press('ArrowDown');
  await box.press('Enter');
  // The file opens over its folder, named in the address, and is still open after a reload.
  await expect(page).toHaveURL(
    new RegExp(`/home/folders/${folder.id}\\?details=file%3A[0-9a-f-]+$`),
  );
  const opened = page.getByTestId('details-panel').getByRole('heading', { name: DOCUMENTS[0]! });
  await expect(opened).toBeVisible();
  await page.reload();
  await expect(opened).toBeVisible();

  // The results page keeps the search in its URL.
  await page.goto(`/search?q=${encodeURIComponent(rareValue.slice(0, 12))}`);
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem', { name: DOCUMENTS[0]! })).toBeVisible();
  await expect(results.getByRole('listitem')).toHaveCount(1);

  // Files missing "Tax year" in the folder: only the third document.
  await page.goto(
    `/missing-indexes?folder=${folder.id}&folder_name=${encodeURIComponent(folder.name)}`,
  );
  await page.getByRole('combobox', { name: 'Index fields' }).click();
  await chooseOption(page, taxYear);
  await expect(page).toHaveURL(/field=/);
  const missing = page.getByRole('group', { name: 'Files missing index values' });
  await expect(missing.getByText('1 file missing a value')).toBeVisible();
  await expect(missing.getByRole('listitem', { name: DOCUMENTS[2]! })).toBeVisible();
  await expect(
    missing.getByRole('link', { name: `Open the folder of ${DOCUMENTS[2]!}` }),
  ).toHaveAttribute('href', `/home/folders/${folder.id}`);

  // A CRM contact (imported from CSV by the administrator) linked to the folder.
  const contactName = `Jane Doe ${stamp}`;
  const imported = await page.request.post('/api/rest/private/contacts/import', {
    data: {
      csv: `name,email,phone,crm_id\n${contactName},jane.${stamp}@example.com,+1 415 555 0100,crm-${stamp}\n`,
    },
  });
  expect(imported.ok()).toBe(true);
  expect(((await imported.json()) as { created: number }).created).toBe(1);
  await page.goto('/home');
  const folderPanel = await openDetailsFromRow(page, folder.name);
  await folderPanel.getByRole('combobox', { name: 'Link a contact' }).click();
  await folderPanel.getByRole('combobox', { name: 'Link a contact' }).fill(`Jane Doe ${stamp}`);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: contactName })
    .click();
  await expect(folderPanel.getByText(contactName, { exact: true })).toBeVisible();

  // History says so.
  await closeDetails(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'History' })
    .click();
  const history = page.getByRole('list', { name: 'Activity history' });
  await expect(
    history.getByText(`linked contact "${contactName}" to folder "${folder.name}"`, {
      exact: false,
    }),
  ).toBeVisible();
});
