/**
 * Document requests end to end in Chromium against the real server, with two browser contexts.
 * The advisor (the seeded administrator) adds a request template in Admin › Request templates,
 * links a CRM contact to a client's folder, and from the folder's "Request documents" dialog
 * sends a request filled from the template to the contact's address. The client, on a phone
 * (390 × 844) and without a session, opens the link e-mailed to them (read from the outbox: the
 * JSON files the mailer writes under DATA_DIR/outbox when no SMTP_URL is set) and uploads a
 * corpus file to each of the two items. The advisor rejects one with a reason; the client sees
 * the reason and uploads again; the advisor accepts both and the request completes. The client's
 * page never scrolls sideways (at 390 and at 360 px wide), and History lists every step under its
 * activity type.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import mime from 'mime';
import type { ContactSearchResponse } from '@common/contacts';
import {
  DOCUMENT_REQUEST_STATUS_LABELS as STATUS,
  REQUEST_ITEM_STATE_LABELS as STATE,
  REQUEST_MESSAGES,
} from '@common/documentRequests';
import { expectNoAxeViolations } from './axe';
import { settled } from './dialogs';
import { openFolder, postFolder } from './folders';
import { signIn } from './session';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
/** The two items of the template, and the corpus file the client sends to each first. */
const STATEMENT = 'Bank statement';
const LETTER = 'Signed engagement letter';
const ITEMS = [STATEMENT, LETTER] as const;
const FIRST_FILES = { [STATEMENT]: 'minimal-document.pdf', [LETTER]: 'test.docx' } as const;
/**
 * What the client sends again for the rejected item: a corrected statement (another corpus PDF)
 * under the first one's name, as a client re-saving their file would; the folder then holds it
 * under the next free name.
 */
const AGAIN = { source: 'pdflatex-4-pages.pdf', name: FIRST_FILES[STATEMENT] } as const;
const AGAIN_STORED = 'minimal-document (1).pdf';
const REASON = 'Page 2 of the statement is missing.';
/** Set E2E_SHOTS=1 to also save screenshots of the client's page under /tmp/request-shots. */
const SHOTS = process.env.E2E_SHOTS ? '/tmp/request-shots' : '';

test.use({ viewport: { width: 1400, height: 1100 } });

/** An e-mail the mailer wrote to the outbox. */
interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
}

/** The outbox's messages (newest first), read from the outbox folder. */
function outboxMessages(): OutboxMessage[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (!process.env.E2E_DATA_DIR || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as OutboxMessage);
}

/**
 * The e-mail to `to` whose subject contains `subject`, from the outbox, and the request link
 * (its path, /r/<token>) it carries.
 */
async function requestMail(
  to: string,
  subject: string,
): Promise<{ message: OutboxMessage; linkPath: string }> {
  let found: { message: OutboxMessage; linkPath: string } | null = null;
  await expect
    .poll(
      () => {
        for (const message of outboxMessages()) {
          if (message.to !== to || !message.subject.includes(subject)) continue;
          const match = /https?:\/\/[^/\s]+(\/r\/[A-Za-z0-9_-]{20,})/.exec(message.text);
          if (match) found = { message, linkPath: match[1]! };
        }
        return found !== null;
      },
      { message: `an e-mail to ${to}: ${subject}`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

/** Chooses an option of the open antd select by its title (its label). */
async function chooseOption(page: Page, title: string): Promise<void> {
  await page.locator('.ant-select-dropdown:visible').getByTitle(title, { exact: true }).click();
}

/** The client's section of one requested item (a region named by the item). */
function clientItem(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** The advisor's card of one requested item on the request page. */
function advisorItem(page: Page, name: string): Locator {
  return page
    .getByRole('list', { name: 'Requested items' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name}\\b`) }) });
}

/**
 * Picks the corpus file `source` (under the name `name`, by default its own) for an item through
 * its "Upload file" button's file chooser; the upload starts at once.
 * @returns a function that waits until the page lists the file as received
 */
async function pickFor(
  page: Page,
  item: string,
  source: string,
  name = source,
): Promise<() => Promise<void>> {
  const section = clientItem(page, item);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    section.getByRole('button', { name: `Upload file for ${item}` }).click(),
  ]);
  expect(chooser.isMultiple()).toBe(true);
  const files = section.getByRole('list', { name: `Files sent for ${item}` }).getByRole('listitem');
  const before = await files.count();
  const file = path.join(CORPUS, source);
  await chooser.setFiles(
    name === source
      ? file
      : { name, mimeType: mime.getType(name) ?? '', buffer: readFileSync(file) },
  );
  return async () => {
    // The file is sent, recorded, and the refreshed page lists it as received.
    await expect(files).toHaveCount(before + 1, { timeout: 60_000 });
    // The page lists the name the file got in the folder: for a name the folder already holds,
    // the next free one ("a (1).pdf").
    const dot = name.lastIndexOf('.');
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(files.nth(before)).toContainText(
      new RegExp(`^${escape(name.slice(0, dot))}( \\(\\d+\\))?${escape(name.slice(dot))}`),
    );
    await expect(section.getByText(STATE.received, { exact: true })).toBeVisible();
    await expect(section.getByRole('list', { name: `Uploads for ${item}` })).toHaveCount(0);
  };
}

/**
 * Fails when the page is wider than its window (it would scroll sideways), naming the elements
 * that reach past its right edge.
 */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  // antd's click wave on a full-width button spreads a few pixels past it while it fades (a
  // fraction of a second); the layout itself is measured once it is gone.
  await expect(page.locator('.ant-wave')).toHaveCount(0);
  const { scrollWidth, clientWidth, past } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const past: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      const { right } = element.getBoundingClientRect();
      if (right > width + 0.5) {
        past.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} ${right}`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, past };
  });
  expect(scrollWidth, `wider than the window: ${past.join(', ')}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * The client's page as it is: no sideways scroll at 390 and at 360 px wide (then back to the
 * phone's 390 × 844), no axe violation; a screenshot of each width when E2E_SHOTS is set.
 */
async function expectClientPageFits(page: Page, state: string): Promise<void> {
  for (const viewport of [PHONE, SMALL_PHONE]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysScroll(page);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({
        path: path.join(SHOTS, `${viewport.width}-${state}.png`),
        fullPage: true,
      });
    }
  }
  await page.setViewportSize(PHONE);
  await expectNoAxeViolations(page, `the request link page (${state})`);
}

test('an advisor requests documents from a template; the client uploads on a phone; review to completion', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const folderName = `Request client ${stamp}`;
  const templateName = `Annual review ${stamp}`;
  const templateMessage = `Please send these for your annual review (${stamp}).`;
  const contactName = `Rita Client ${stamp}`;
  const email = `rita.${stamp}@example.com`;
  const title = `Documents for ${folderName}`;

  // The advisor adds the template in the admin section.
  const advisorContext = await browser.newContext();
  const advisor = await advisorContext.newPage();
  await signIn(advisor);
  await advisor.goto('/admin/request-templates');
  await advisor.getByRole('button', { name: 'New template' }).click();
  const templateDialog = await settled(
    advisor.getByRole('dialog', { name: 'New request template' }),
  );
  await templateDialog.getByLabel('Template name').fill(templateName);
  await templateDialog.getByLabel('Message (optional)').fill(templateMessage);
  await templateDialog.getByLabel('Item 1 name').fill(STATEMENT);
  await templateDialog.getByLabel('Item 1 description').fill('All pages of the last statement.');
  await templateDialog.getByRole('button', { name: 'Add item' }).click();
  await expect(templateDialog.getByLabel('Item 2 name')).toBeFocused();
  await templateDialog.getByLabel('Item 2 name').fill(LETTER);
  await templateDialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(templateDialog).toBeHidden();
  const templateCard = advisor
    .getByRole('list', { name: 'Templates' })
    .getByRole('listitem', { name: templateName });
  await expect(
    templateCard.getByRole('list', { name: `Items of ${templateName}` }).getByRole('listitem'),
  ).toHaveText([STATEMENT, LETTER]);

  // The client's folder, with their CRM contact linked to it (setup through the API).
  const folder = await postFolder(advisor, folderName);
  const imported = await advisor.request.post('/api/rest/private/contacts/import', {
    data: { csv: `name,email,phone,crm_id\n${contactName},${email},,crm-${stamp}\n` },
  });
  expect(imported.ok()).toBe(true);
  const found = await advisor.request.post('/api/rest/private/contacts/search', {
    data: { name: contactName },
  });
  const contact = ((await found.json()) as ContactSearchResponse).items.find(
    (c) => c.name === contactName,
  );
  expect(contact).toBeDefined();
  const linked = await advisor.request.post('/api/rest/folder_contacts', {
    data: { folder_id: folder.id, contact_id: contact!.id },
  });
  expect(linked.status()).toBe(201);

  // From the folder's page: Request documents, filled from the template, to the contact.
  await openFolder(advisor, folder);
  await advisor.getByRole('button', { name: 'Request documents' }).click();
  const dialog = await settled(advisor.getByRole('dialog', { name: 'Request documents' }));
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
  await dialog.getByRole('combobox', { name: 'Template (optional)' }).click();
  await chooseOption(advisor, templateName);
  await expect(dialog.getByLabel('Item 1 name')).toHaveValue(STATEMENT);
  await expect(dialog.getByLabel('Item 1 description')).toHaveValue(
    'All pages of the last statement.',
  );
  await expect(dialog.getByLabel('Item 2 name')).toHaveValue(LETTER);
  await expect(dialog.getByLabel('Message (optional)')).toHaveValue(templateMessage);
  await dialog.getByRole('combobox', { name: 'Recipients' }).click();
  await chooseOption(advisor, `${contactName} <${email}>`);
  await expect(
    dialog.locator('.ant-select-selection-item').filter({ hasText: email }),
  ).toBeVisible();
  // A click beside the field closes its dropdown (Escape would close the dialog).
  await dialog.getByText('The client gets a link').click();
  await expect(advisor.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByText('Request sent.')).toBeVisible();
  const linkField = dialog.getByRole('textbox', { name: `Link for ${email}` });
  await expect(linkField).toHaveValue(/\/r\/[A-Za-z0-9_-]+$/);
  const dialogLink = new URL(await linkField.inputValue()).pathname;

  // The e-mail in the outbox carries the same link.
  const { linkPath } = await requestMail(email, `asks you for documents: ${title}`);
  expect(linkPath).toBe(dialogLink);

  await dialog.getByRole('link', { name: 'Open the request' }).click();
  await expect(dialog).toBeHidden();
  await expect(advisor).toHaveURL(/\/requests\/[0-9a-f-]+$/);
  await expect(advisor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(advisor.locator('.request-facts')).toContainText(STATUS.open);
  await expect(advisor.locator('.request-facts')).toContainText('not opened yet');
  for (const item of ITEMS) {
    await expect(advisorItem(advisor, item)).toContainText(STATE.missing);
  }
  const requestPath = new URL(advisor.url()).pathname;

  // The client, on a phone and without a session, opens the link.
  const clientContext = await browser.newContext({ viewport: PHONE });
  const client = await clientContext.newPage();
  await client.goto(linkPath);
  await expect(client.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(client.getByText('Requested by')).toContainText('Demo Administrator');
  await expect(client.getByText(templateMessage)).toBeVisible();
  const checklist = client.getByRole('list', { name: 'Requested documents' });
  await expect(checklist.getByRole('heading', { level: 3 })).toHaveText([STATEMENT, LETTER]);
  for (const item of ITEMS) {
    await expect(clientItem(client, item).getByText(STATE.missing, { exact: true })).toBeVisible();
  }
  await expectClientPageFits(client, 'opened');

  // Uploads a file to each item, the second picked without waiting for the first.
  const statementSent = await pickFor(client, STATEMENT, FIRST_FILES[STATEMENT]);
  const letterSent = await pickFor(client, LETTER, FIRST_FILES[LETTER]);
  await statementSent();
  await letterSent();
  await expectClientPageFits(client, 'received');

  // The advisor finds the request among the open ones, both items received.
  await advisor
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Requests' })
    .click();
  await expect(advisor).toHaveURL(/\/requests$/);
  const openRow = advisor
    .getByRole('table', { name: 'Open requests' })
    .getByRole('row')
    .filter({ has: advisor.getByRole('link', { name: title, exact: true }) });
  await expect(openRow).toContainText('0 of 2 accepted');
  await expect(openRow).toContainText('2 received');
  await expect(openRow).toContainText(STATUS.open);
  await expect(openRow.getByRole('link', { name: folderName, exact: true })).toBeVisible();
  await openRow.getByRole('link', { name: title, exact: true }).click();
  await expect(advisor).toHaveURL(new RegExp(`${requestPath}$`));

  // It shows both received, with the files; the advisor rejects the statement with a reason.
  await expect(advisor.locator('.request-facts')).not.toContainText('not opened yet');
  await expect(advisor.locator('.request-facts')).toContainText('0 of 2 accepted (2 received)');
  for (const item of ITEMS) {
    const card = advisorItem(advisor, item);
    await expect(card).toContainText(STATE.received);
    await expect(card.getByRole('list', { name: `Files for ${item}` })).toContainText(
      FIRST_FILES[item],
    );
    await expect(card.getByRole('list', { name: `Files for ${item}` })).toContainText(email);
  }
  await advisor.getByRole('button', { name: `Reject ${STATEMENT}` }).click();
  const reject = await settled(advisor.getByRole('dialog', { name: `Reject “${STATEMENT}”` }));
  await reject.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(reject.getByRole('alert')).toHaveText(REQUEST_MESSAGES.reasonRequired);
  await reject.getByLabel('Reason (the client reads it)').fill(REASON);
  await reject.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(reject).toBeHidden();
  const statementCard = advisorItem(advisor, STATEMENT);
  await expect(statementCard).toContainText(STATE.rejected);
  await expect(statementCard).toContainText(`Rejected: ${REASON}`);
  await expect(advisor.getByRole('button', { name: `Reject ${STATEMENT}` })).toHaveCount(0);

  // The rejection is e-mailed to the client with the same link.
  const rejected = await requestMail(email, `please upload "${STATEMENT}" again`);
  expect(rejected.linkPath).toBe(linkPath);
  expect(rejected.message.text).toContain(`Reason: ${REASON}`);

  // The client sees the reason and uploads again.
  await client.reload();
  const statement = clientItem(client, STATEMENT);
  await expect(statement.getByText(STATE.rejected, { exact: true })).toBeVisible();
  await expect(statement.getByText(`Rejected: ${REASON}`)).toBeVisible();
  await expect(clientItem(client, LETTER).getByText(STATE.received, { exact: true })).toBeVisible();
  await expectClientPageFits(client, 'rejected');
  await (
    await pickFor(client, STATEMENT, AGAIN.source, AGAIN.name)
  )();
  await expect(statement.getByText(`Rejected: ${REASON}`)).toHaveCount(0);

  // The advisor accepts both; the request completes.
  await advisor.reload();
  await expect(statementCard).toContainText(STATE.received);
  await expect(
    statementCard.getByRole('list', { name: `Files for ${STATEMENT}` }).getByRole('listitem'),
  ).toHaveCount(2);
  await expect(statementCard.getByRole('list', { name: `Files for ${STATEMENT}` })).toContainText(
    AGAIN_STORED,
  );
  await advisor.getByRole('button', { name: `Accept ${STATEMENT}` }).click();
  await expect(statementCard).toContainText(STATE.accepted);
  await expect(advisor.locator('.request-facts')).toContainText(STATUS.open);
  await advisor.getByRole('button', { name: `Accept ${LETTER}` }).click();
  await expect(advisorItem(advisor, LETTER)).toContainText(STATE.accepted);
  await expect(advisor.locator('.request-facts')).toContainText(STATUS.completed);
  await expect(advisor.locator('.request-facts')).toContainText('2 of 2 accepted');
  await expect(advisor.getByRole('button', { name: 'Remind' })).toHaveCount(0);
  await expect(advisor.getByRole('button', { name: 'Cancel request' })).toHaveCount(0);

  // The request list: no longer open, listed as completed among the closed ones.
  await advisor.goto('/requests');
  await expect(advisor.getByRole('heading', { level: 1, name: 'Requests' })).toBeVisible();
  await expect(advisor.getByRole('link', { name: title, exact: true })).toHaveCount(0);
  await advisor.getByRole('tab', { name: 'Closed' }).click();
  await expect(advisor).toHaveURL(/\/requests\?status=closed$/);
  const closedRow = advisor
    .getByRole('table', { name: 'Closed requests' })
    .getByRole('row')
    .filter({ has: advisor.getByRole('link', { name: title, exact: true }) });
  await expect(closedRow).toContainText(STATUS.completed);
  await expect(closedRow).toContainText(email);
  await closedRow.getByRole('link', { name: title, exact: true }).click();
  await expect(advisor).toHaveURL(new RegExp(`${requestPath}$`));

  // The client's page says it is complete; nothing more can be uploaded.
  await client.reload();
  await expect(client.getByText(REQUEST_MESSAGES.completed)).toBeVisible();
  for (const item of ITEMS) {
    await expect(clientItem(client, item).getByText(STATE.accepted, { exact: true })).toBeVisible();
  }
  await expect(client.getByRole('button', { name: /^Upload file for / })).toHaveCount(0);
  await expectClientPageFits(client, 'completed');
  // The link gave the client no session: the app asks them to sign in.
  await client.goto('/home');
  await expect(client.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(client.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // The three files are in the client's folder, added in the client's name.
  await openFolder(advisor, folder);
  for (const file of [FIRST_FILES[STATEMENT], FIRST_FILES[LETTER], AGAIN_STORED]) {
    await expect(advisor.getByRole('link', { name: file, exact: true })).toBeVisible();
  }
  await expect(advisor.getByTestId('entity-row')).toHaveCount(3);

  // History: every step under its activity type.
  const folderWords = `in "${folderName}"`;
  const request = `document request "${title}"`;
  const steps: { type: string; texts: string[] }[] = [
    { type: 'request-sent', texts: [`Demo Administrator sent ${request} to ${email}`] },
    {
      type: 'document-received',
      texts: [
        `${email} uploaded file "${FIRST_FILES[STATEMENT]}" for "${STATEMENT}"`,
        `${email} uploaded file "${FIRST_FILES[LETTER]}" for "${LETTER}"`,
        `${email} uploaded file "${AGAIN_STORED}" for "${STATEMENT}"`,
      ],
    },
    {
      type: 'document-rejected',
      texts: [`Demo Administrator rejected "${STATEMENT}" of ${request}`],
    },
    {
      type: 'document-accepted',
      texts: [
        `Demo Administrator accepted "${STATEMENT}" of ${request}`,
        `Demo Administrator accepted "${LETTER}" of ${request}`,
      ],
    },
    {
      type: 'reminder-sent',
      texts: [`Demo Administrator sent a reminder of ${request} to ${email}`],
    },
    { type: 'request-closed', texts: [`Demo Administrator completed ${request}`] },
  ];
  const rows = advisor.getByTestId('history-row');
  for (const { type, texts } of steps) {
    await advisor.goto(`/history?type=${type}`);
    for (const text of texts) {
      const row = rows.filter({ hasText: text });
      await expect(row, `${type}: ${text}`).toHaveCount(1);
      await expect(row).toContainText(folderWords);
    }
  }
  await advisor.goto('/history?type=document-rejected');
  await expect(rows.filter({ hasText: request })).toContainText(`reason: ${REASON}`);

  await clientContext.close();
  await advisorContext.close();
});
