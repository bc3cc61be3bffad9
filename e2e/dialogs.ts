/**
 * Waiting for a dialog to finish opening before pressing its buttons, shared by the specs.
 */
import { expect, type Locator } from '@playwright/test';

/**
 * The motion classes antd (through @rc-component/motion) puts on a dialog while it zooms in:
 * `ant-zoom-appear`, `ant-zoom-enter-active` and the like. They are removed when the motion ends.
 */
const OPENING = /\bant-[\w-]*-(appear|enter)\b/;

/**
 * Waits until `dialog` is visible and has finished zooming in, then answers it.
 *
 * antd's modal zooms in from the button that opened it. On a loaded machine Playwright can find a
 * button inside it "stable" mid-animation and press it while it is a few pixels wide; the button
 * then grows between mouse down and mouse up, no click event fires and nothing happens (a CI trace
 * showed exactly this for the "New folder" dialog, see folders.ts). Clicks made after this
 * resolves land on the dialog at its full size.
 */
export async function settled(dialog: Locator): Promise<Locator> {
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(OPENING);
  return dialog;
}
