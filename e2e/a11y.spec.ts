/**
 * Accessibility to WCAG 2.2 AA: axe-core finds no violation on any page of the app or any of its
 * dialogs and drawers, in Chromium against the real server, at a desktop size and at a phone's.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { settled } from './dialogs';
import { signIn } from './session';
import { postFolder } from './folders';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus');

/** Signs in after checking the sign-in page itself; on a phone the home page's heading says it loaded. */
async function signInAfterAxe(page: Page): Promise<void> {
  await page.goto('/login');
  await expectNoAxeViolations(page, '/login');
  await signIn(page, { landed: 'heading', open: false });
}

/** Waits until the page has painted its content (no spinner left) before axe reads it. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  // antd fades content in; let the last motion end so colours are read at full opacity.
  await page.waitForTimeout(400);
}

/** The pages an administrator reaches, each checked after it has loaded. */
const PAGES: { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/home', ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible() },
  {
    path: '/recent',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/favorites',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/archive',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/shared',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/shared?tab=by-me',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/search?q=a11y',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/missing-indexes',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/history',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/members',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/teams',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/integrations',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/index-fields',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/contacts',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/outbox',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    path: '/admin/retention',
    ready: (page) =>
      expect(page.getByRole('heading', { level: 2, name: 'Retention schedules' })).toBeVisible(),
  },
  {
    path: '/admin/legal-holds',
    ready: (page) =>
      expect(page.getByRole('heading', { level: 2, name: 'Legal holds' })).toBeVisible(),
  },
  {
    path: '/admin/disposition',
    ready: (page) =>
      expect(page.getByRole('heading', { level: 2, name: 'Disposition' })).toBeVisible(),
  },
  {
    path: '/admin/imaging',
    ready: (page) => expect(page.getByRole('heading', { level: 3, name: 'Tools' })).toBeVisible(),
  },
  {
    path: '/admin/examiner-export',
    ready: (page) =>
      expect(
        page.getByRole('heading', { level: 2, name: 'Export records for an examiner' }),
      ).toBeVisible(),
  },
  {
    path: '/no-such-page',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('every page has no axe violation', async ({ page }) => {
      await signInAfterAxe(page);
      const folder = await postFolder(page, `A11y ${viewport.width} ${Date.now()}`);
      await page.goto(`/home/folders/${folder.id}`);
      await page
        .getByLabel('Upload files')
        .setInputFiles(path.join(CORPUS, 'minimal-document.pdf'));
      await expect(
        page.getByTestId('entity-row').filter({ hasText: 'minimal-document.pdf' }),
      ).toBeVisible({
        timeout: 60_000,
      });
      await settle(page);
      await expectNoAxeViolations(page, 'a folder with a file and the upload panel');

      for (const { path: route, ready } of PAGES) {
        await page.goto(route);
        await ready(page);
        await settle(page);
        await expectNoAxeViolations(page, route);
      }
    });
  });
}

test.describe('dialogs', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('every dialog and drawer has no axe violation', async ({ page }) => {
    await signInAfterAxe(page);
    const folder = await postFolder(page, `A11y dialogs ${Date.now()}`);
    await postFolder(page, 'Inner', folder.id);
    await page.goto(`/home/folders/${folder.id}`);
    const row = page.getByTestId('entity-row').filter({ hasText: 'Inner' });
    await expect(row).toBeVisible();

    const check = async (where: string) => {
      const dialog = await settled(page.getByRole('dialog').last());
      await page.waitForTimeout(300);
      await expectNoAxeViolations(page, where);
      return dialog;
    };
    const close = async () => {
      const open = await page.getByRole('dialog').count();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(open - 1);
    };

    await page.getByRole('button', { name: /New folder/ }).click();
    await check('New folder dialog');
    await close();

    // Rename edits the name in its row: the page with the field open.
    await page.getByRole('button', { name: 'More actions for Inner' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await expect(page.getByRole('textbox', { name: /name/i }).first()).toBeVisible();
    await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
    await expectNoAxeViolations(page, 'Renaming in a row');
    await page.keyboard.press('Escape');

    for (const action of ['Move to…', 'Copy to…']) {
      await page.getByRole('button', { name: 'More actions for Inner' }).click();
      await page.getByRole('menuitem', { name: action }).click();
      await check(`${action} dialog`);
      await close();
    }

    await page.getByRole('button', { name: 'History of Inner' }).click();
    await check('History drawer');
    await close();

    // `?` (outside a field) opens the keyboard shortcuts.
    await page.locator('#main-content').focus();
    await page.keyboard.press('?');
    await check('Keyboard shortcuts dialog');
    await close();

    // Below 1100px the details panel is a drawer.
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.getByRole('button', { name: 'More actions for Inner' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await check('Details drawer');
    await close();
    await page.setViewportSize({ width: 1440, height: 900 });

    // At this width it is a side pane beside the list (not a dialog).
    await page.getByRole('button', { name: 'More actions for Inner' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const panel = page.getByRole('complementary', { name: 'Details' });
    await expect(panel.getByRole('heading', { level: 2, name: 'Inner' })).toBeVisible();
    await settle(page);
    await expectNoAxeViolations(page, 'Details side pane');
    await panel.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(1);
    const share = await check('Share dialog');
    await share.getByLabel('Recipients').fill(`a11y-guest-${Date.now()}@example.com`);
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(share.getByRole('textbox', { name: 'Share link' })).toBeVisible();
    await expectNoAxeViolations(page, 'Share dialog with its link and who has access');
    await close();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toHaveCount(0);

    // The invitation just sent is in the outbox: its list and an open message.
    await page.goto('/admin/outbox');
    await page.getByRole('listitem').getByRole('button').first().click();
    await expect(page.getByRole('article', { name: 'Message' })).toBeVisible();
    await settle(page);
    await expectNoAxeViolations(page, 'the outbox with a message open');

    await page.goto('/admin/members');
    await page.getByRole('button', { name: 'Add member' }).click();
    await check('Add member dialog');
    await close();

    await page.goto('/admin/index-fields');
    await page.getByRole('button', { name: 'Create index field' }).click();
    await check('Create index field dialog');
    await close();
  });
});
