/**
 * Phone layouts in Chromium against the real server, at 390 × 844 (and the folder pages again at
 * 360 × 740): every page shows the items' names (wider than 80 px), nothing overflows the window
 * sideways, buttons are at least 24 × 24 px (WCAG 2.2 target size), the header's user menu shows
 * the full name, the navigation opens in a drawer, the main dialogs fit, History entries read on
 * their full width, and a guest opening a share on a phone sees what was shared. The sign-in page
 * fits a 900 px tall desktop window without scrolling.
 *
 * Set E2E_SHOTS=1 to also save a screenshot of each page under /tmp/phone-shots.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Page as ListPage } from '@common/api';
import type { EntityDto, FolderDto } from '@common/entities';
import { settled } from './dialogs';
import { openDetailsFromRow } from './rowMenu';
import { signIn } from './session';
import { postFolder } from './folders';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');
const guestPassword = 'guest password 2024';
const SHOTS = process.env.E2E_SHOTS ? '/tmp/phone-shots' : '';
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };

test.use({ viewport: PHONE });

/** Saves a screenshot of the page when E2E_SHOTS is set. */
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const { width } = page.viewportSize() ?? PHONE;
  await page.screenshot({ path: path.join(SHOTS, `${width}-${name}.png`) });
}

/**
 * Uploads a PDF under each of `names` into `folder` through its page's file picker, and answers
 * the folder's items.
 */
async function upload(page: Page, folder: FolderDto, names: string[]): Promise<EntityDto[]> {
  await page.goto(`/home/folders/${folder.id}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.name })).toBeVisible();
  const pdf = readFileSync(path.join(CORPUS, 'minimal-document.pdf'));
  await page
    .getByLabel('Upload files')
    .setInputFiles(names.map((name) => ({ name, mimeType: 'application/pdf', buffer: pdf })));
  for (const name of names) {
    await expect(page.getByTestId('entity-row').filter({ hasText: name })).toHaveCount(1, {
      timeout: 60_000,
    });
  }
  const list = await page.request.get(`/api/rest/entities?folder_id=${folder.id}`);
  return ((await list.json()) as ListPage<EntityDto>).items;
}

/**
 * What overflows the window sideways: the document itself, any visible element reaching past
 * either edge that no ancestor inside the window clips, and any scroll container (but the admin
 * tabs, which scroll sideways on purpose) whose content is wider than itself.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const label = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    if (document.documentElement.scrollWidth > width) {
      found.push(`document ${document.documentElement.scrollWidth}px`);
    }
    const inside = (rect: DOMRect) => rect.left >= -1 && rect.right <= width + 1;
    for (const element of document.querySelectorAll('body *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (getComputedStyle(element).visibility === 'hidden') continue;
      const style = getComputedStyle(element);
      if (
        (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
        element.scrollWidth > element.clientWidth + 1 &&
        !element.closest('.admin-tabs')
      ) {
        found.push(`scrolls sideways: ${label(element)}`);
      }
      if (inside(rect)) continue;
      let clipped = false;
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const upStyle = getComputedStyle(up);
        if (upStyle.overflowX !== 'visible' && inside(up.getBoundingClientRect())) {
          clipped = true;
          break;
        }
      }
      if (!clipped)
        found.push(`${label(element)} ${Math.round(rect.left)}–${Math.round(rect.right)}`);
    }
    return found.slice(0, 8);
  });
}

/** Buttons, checkboxes, switches, tabs and selects in view smaller than 24 × 24 px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      'button',
      '[role="button"]',
      'a.ant-btn',
      '.ant-checkbox-wrapper',
      '.ant-switch',
      '[role="tab"]',
      '.ant-select',
      '.app-nav-link',
      '.shared-cell-actions a',
    ].join(', ');
    const found: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.bottom < 0 || box.top > window.innerHeight) continue;
      if (element.closest('.visually-hidden, [aria-hidden="true"]')) continue;
      if (getComputedStyle(element).visibility === 'hidden') continue;
      // A tab's target is the whole tab, padding included.
      const rect = (element.closest('.ant-tabs-tab') ?? element).getBoundingClientRect();
      if (rect.width < 23.5 || rect.height < 23.5) {
        found.push(
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${element.getAttribute('aria-label') ?? element.textContent?.trim()}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return found.slice(0, 8);
  });
}

/** The page fits the window's width and its targets are large enough. */
async function expectFits(page: Page, name: string): Promise<void> {
  await shot(page, name);
  expect.soft(await overflows(page), `${name}: nothing overflows sideways`).toEqual([]);
  expect.soft(await smallTargets(page), `${name}: targets of 24 × 24 px`).toEqual([]);
}

/** Each of `names` is shown, on a width of more than 80 px. */
async function expectNamesShown(scope: Page | Locator, names: string[]): Promise<void> {
  for (const name of names) {
    const link = scope.getByText(name, { exact: true }).first();
    await expect(link).toBeVisible();
    const box = await link.boundingBox();
    expect(box?.width ?? 0, `the width of "${name}"`).toBeGreaterThan(80);
  }
}

/** A dialog (or drawer) fits inside the window, once it has slid or zoomed in. */
async function expectInWindow(page: Page, dialog: Locator): Promise<void> {
  const { width } = page.viewportSize() ?? PHONE;
  await expect
    .poll(async () => {
      const box = await dialog.boundingBox();
      return box !== null && box.x >= -0.5 && box.x + box.width <= width + 0.5;
    })
    .toBe(true);
}

for (const viewport of [PHONE, SMALL_PHONE]) {
  test(`the pages at ${viewport.width} × ${viewport.height}`, async ({ page }) => {
    // Every page and dialog in one walk: minutes on a loaded 2-core machine.
    test.setTimeout(300_000);
    await page.setViewportSize(viewport);
    const stamp = Date.now().toString(36);
    await page.goto('/login');
    await expectFits(page, 'login');
    await signIn(page, { landed: 'menu' });

    // The header: menu button, brand, search and the user's initials; the name is in the menu.
    const userButton = page.getByRole('button', { name: 'Demo Administrator' });
    await expect(userButton).toBeVisible();
    await expect(userButton).toHaveText(/^DA/);
    await expect(page.getByRole('link', { name: 'Sign out' })).toBeHidden();
    await userButton.click();
    const userName = page.locator('.user-menu-name');
    await expect(userName).toHaveText('Demo Administrator');
    // The whole name, not clipped.
    expect(await userName.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
      true,
    );
    await expect(page.locator('.user-menu').getByRole('link', { name: 'Sign out' })).toBeVisible();
    await shot(page, 'user-menu');
    await page.keyboard.press('Escape');
    await expect(userName).toBeHidden();

    // Items with long-ish names, one of them a favorite and one archived.
    const folder = await postFolder(page, `Henderson family trust ${stamp}`);
    const sub = await postFolder(page, `Correspondence with the custodian ${stamp}`, folder.id);
    const names = [
      `Quarterly portfolio review ${stamp}.pdf`,
      `Signed engagement letter ${stamp}.pdf`,
      `Old statement to archive ${stamp}.pdf`,
    ];
    const items = await upload(page, folder, names);
    const byName = (name: string) => items.find((item) => item.name === name)!;
    await page.request.patch(`/api/rest/files/${byName(names[0]!).id}/favorite`, {
      data: { enabled: true },
    });
    await page.request.post(`/api/rest/files/${byName(names[2]!).id}/archive`);

    // The folder view.
    await page.goto(`/home/folders/${folder.id}`);
    const shown = [sub.name, names[0]!, names[1]!];
    await expectNamesShown(page.getByRole('table'), shown);
    await expectFits(page, 'folder');
    await page.goto('/home');
    // Home holds every earlier test's folders: the first row's name stands for them.
    const firstName = await page
      .getByTestId('entity-row')
      .first()
      .locator('.entity-name')
      .innerText();
    await expectNamesShown(page.getByRole('table'), [firstName]);
    await expectFits(page, 'home');

    // The navigation drawer.
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('navigation') });
    await expect(drawer).toBeVisible();
    await expectInWindow(page, drawer);
    await shot(page, 'navigation');
    await drawer.getByRole('link', { name: 'Recent' }).click();
    await expect(page).toHaveURL(/\/recent$/);
    await expect(drawer).toBeHidden();

    // Recent, Favorites, Archive.
    await expectNamesShown(page.getByRole('table'), [names[1]!, names[0]!]);
    await expectFits(page, 'recent');
    await page.goto('/favorites');
    await expectNamesShown(page.getByRole('table'), [names[0]!]);
    await expectFits(page, 'favorites');
    await page.goto('/archive');
    await expectNamesShown(page.getByRole('table'), [names[2]!]);
    await expectFits(page, 'archive');

    // Search, Missing indexes, History, the admin pages, an unknown address.
    await page.goto(`/search?q=${stamp}`);
    await expectNamesShown(page.locator('.search-results'), [folder.name, names[0]!]);
    await expectFits(page, 'search');
    await page.goto('/missing-indexes');
    await expect(page.getByRole('heading', { level: 1, name: 'Missing indexes' })).toBeVisible();
    await expectFits(page, 'missing-indexes');
    await page.goto('/history');
    const entry = page.getByTestId('history-row').first().locator('.history-summary');
    await expect(entry).toBeVisible();
    expect((await entry.boundingBox())!.width).toBeGreaterThan(200);
    await expectFits(page, 'history');
    for (const section of [
      'members',
      'teams',
      'integrations',
      'index-fields',
      'contacts',
      'outbox',
      'examiner-export',
      'retention',
      'legal-holds',
      'disposition',
      'imaging',
    ]) {
      await page.goto(`/admin/${section}`);
      await expect(page.getByRole('navigation', { name: 'Admin sections' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectFits(page, `admin-${section}`);
    }
    await page.goto('/no-such-page');
    await expect(page.getByText('Page not found')).toBeVisible();
    await expectFits(page, 'not-found');

    // The dialogs: new folder, move, details, index values.
    await page.goto(`/home/folders/${folder.id}`);
    await expectNamesShown(page.getByRole('table'), [names[0]!]);
    await page.getByRole('button', { name: 'New folder' }).click();
    const create = await settled(page.getByRole('dialog', { name: 'New folder' }));
    await expectInWindow(page, create);
    await expectFits(page, 'dialog-new-folder');
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();

    await page.getByRole('button', { name: `More actions for ${names[0]}` }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const move = await settled(page.getByRole('dialog'));
    await expectInWindow(page, move);
    await expectFits(page, 'dialog-move');
    await page.keyboard.press('Escape');
    await expect(move).toBeHidden();

    const panel = await openDetailsFromRow(page, names[0]!);
    await expectInWindow(page, panel);
    await expectFits(page, 'details');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    await page.getByRole('checkbox', { name: `Select ${names[0]}` }).check();
    await page.getByRole('checkbox', { name: `Select ${names[1]}` }).check();
    const toolbar = page.getByRole('toolbar', { name: 'Selected items' });
    await expectFits(page, 'selection');
    await toolbar.getByRole('button', { name: /Index values/ }).click();
    const bulk = await settled(page.getByRole('dialog', { name: 'Apply index values to 2 files' }));
    await expectInWindow(page, bulk);
    await expectFits(page, 'dialog-index-values');
    await page.keyboard.press('Escape');
    await expect(bulk).toBeHidden();

    // Between a phone and a desktop (the side navigation collapsed to its icons): the list's
    // columns, not the stacked lines, and still nothing overflows.
    await page.setViewportSize({ width: 700, height: 800 });
    await page.goto(`/home/folders/${folder.id}`);
    await expectNamesShown(page.getByRole('table'), shown);
    await expectFits(page, 'tablet-folder');
  });
}

/** The texts of the outbox's messages (newest first), read from the outbox folder. */
function outboxTexts(): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (!process.env.E2E_DATA_DIR || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) => readFileSync(file, 'utf8'));
}

/** The invitation address e-mailed to `email`, read from the outbox. */
async function invitationPath(email: string): Promise<string> {
  let found = '';
  await expect
    .poll(
      () => {
        for (const text of outboxTexts()) {
          const match = text.includes(email) && /\/sharing\/invitation\/[A-Za-z0-9_-]+/.exec(text);
          if (match) found = match[0];
        }
        return found;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return found;
}

test('a folder shared on a phone, and the guest who opens it on a phone', async ({ browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const guestEmail = `phone-guest-${stamp}@example.com`;
  const advisor = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signIn(advisor, { landed: 'menu' });
  const folder = await postFolder(advisor, `Statements for the Okafor family ${stamp}`);
  const names = [`Annual tax summary ${stamp}.pdf`, `Portfolio valuation ${stamp}.pdf`];
  await upload(advisor, folder, names);

  // The share dialog, from the side panel, on a phone.
  await advisor.goto('/home');
  const panel = await openDetailsFromRow(advisor, folder.name);
  await panel.getByRole('button', { name: 'Share' }).click();
  const dialog = await settled(advisor.getByRole('dialog', { name: `Share ${folder.name}` }));
  await expectInWindow(advisor, dialog);
  await dialog.getByLabel('Recipients').fill(guestEmail);
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByTestId('share-invitation')).toContainText(guestEmail);
  await expectFits(advisor, 'dialog-share');

  // Shared by me, on a phone.
  await advisor.goto('/shared?tab=by-me');
  const byMe = advisor.getByTestId('shared-by-me-row').filter({ hasText: guestEmail });
  await expect(byMe).toContainText('Invitation pending');
  await expectNamesShown(byMe, [folder.name]);
  await expectFits(advisor, 'shared-by-me');
  await advisor.goto('/shared');
  await expectFits(advisor, 'shared-with-me');

  // The guest signs up on a phone and sees the names of what was shared.
  const guest = await (await browser.newContext({ viewport: PHONE })).newPage();
  await guest.goto(await invitationPath(guestEmail));
  await expect(guest.getByLabel('First name')).toBeVisible();
  await expectFits(guest, 'invitation');
  await guest.getByLabel('First name').fill('Gail');
  await guest.getByLabel('Last name').fill(`Guest ${stamp}`);
  await guest.getByLabel('Password', { exact: true }).fill(guestPassword);
  await guest.getByLabel('Confirm password').fill(guestPassword);
  await guest.getByRole('button', { name: 'Create account and open' }).click();
  await expect(guest).toHaveURL(/\/sharing\/shared$/);
  await expectNamesShown(guest.getByRole('table'), [folder.name]);
  await expectFits(guest, 'guest-shared');
  await guest.getByRole('link', { name: folder.name, exact: true }).click();
  await expect(guest.getByTestId('shared-row')).toHaveCount(2);
  await expectNamesShown(guest.getByRole('table'), names);
  for (const name of names) {
    await expect(guest.getByRole('link', { name: `Download ${name}` })).toBeVisible();
  }
  await expectFits(guest, 'guest-shared-folder');
  // The guest's user menu names them in full.
  await guest.getByRole('button', { name: `Gail Guest ${stamp}` }).click();
  await expect(guest.locator('.user-menu-name')).toHaveText(`Gail Guest ${stamp}`);
});

test('the sign-in page fits a 900 px tall desktop window', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await shot(page, 'login-desktop');
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollHeight,
    height: window.innerHeight,
  }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.height);
});
