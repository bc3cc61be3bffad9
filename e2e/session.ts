/**
 * Signing in through the sign-in page, as every end-to-end spec does. The e2e servers seed the
 * administrator `admin` with E2E_ADMIN_PASSWORD (playwright.config.ts sets it for every process).
 */
import { expect, type Page } from '@playwright/test';

/** The seeded administrator's password on the e2e servers. */
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';

/**
 * What tells that signing in has finished:
 * - `main`: the Main navigation is shown (a desktop-sized window);
 * - `menu`: the Menu button is shown (a phone, where the navigation is in a drawer);
 * - `heading`: the home page's heading is shown (any window size);
 * - `away`: the address is no longer the sign-in page (a user who may land on any page);
 * - `none`: nothing is awaited (a sign-in that is expected to be refused).
 */
export type SignedIn = 'main' | 'menu' | 'heading' | 'away' | 'none';

/** Who signs in and how the spec knows it has finished. */
export interface SignInOptions {
  /** Defaults to the seeded administrator, `admin`. */
  username?: string;
  /** Defaults to ADMIN_PASSWORD. */
  password?: string;
  /** Defaults to `main`. */
  landed?: SignedIn;
  /** Whether to open /login first; false when the page already shows it. Defaults to true. */
  open?: boolean;
}

/**
 * Fills the sign-in form and submits it, then waits as `options.landed` says.
 * Fails (through Playwright's expect) when the awaited sign does not appear in time.
 */
export async function signIn(page: Page, options: SignInOptions = {}): Promise<void> {
  const { username = 'admin', password = ADMIN_PASSWORD, landed = 'main', open = true } = options;
  if (open) await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  switch (landed) {
    case 'main':
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      break;
    case 'menu':
      await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
      break;
    case 'heading':
      await expect(page).toHaveURL(/\/home/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      break;
    case 'away':
      await expect(page).not.toHaveURL(/\/login/);
      break;
    case 'none':
      break;
  }
}
