/**
 * The examiner's export, in Chromium against the real server: an administrator uploads corpus
 * files into a new folder, exports the folder from its side panel ("Export for examiner"), and
 * the browser downloads the zip. Its entries (read with yauzl) hold manifest.json, index.csv,
 * history.csv and the files at their folder paths; the manifest's sha256 of each file is the
 * corpus file's; and the documented verifier (`npm run history:verify -- --export FILE.zip`)
 * reports OK with exit code 0.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import yauzl from 'yauzl';
import { EXAMINER_DOCUMENTS, EXAMINER_FILES_DIR } from '@common/examinerExport';
import { settled } from './dialogs';
import { createFolder } from './folders';
import { openDetailsFromRow } from './rowMenu';
import { signIn } from './session';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The shared corpus beside the checkout (E2E_CORPUS elsewhere, e.g. in a worktree). */
const CORPUS = process.env.E2E_CORPUS ?? path.resolve(ROOT, '../shared/corpus');
/** The corpus files the test uploads. */
const FILES = ['minimal-document.pdf', 'smile.jpg', 'small-rtf.rtf'];

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let workDir: string;

test.beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'dossier-e2e-examiner-'));
});

test.afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

test.use({ viewport: { width: 1400, height: 1600 } });

/** The row of an item by its exact name. */
function row(page: Page, name: string): Locator {
  return page
    .getByTestId('entity-row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Every entry of a zip file with its bytes (directories are left out), read with yauzl. */
function zipContents(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) {
        reject(error ?? new Error('no zip'));
        return;
      }
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) {
            reject(streamError ?? new Error(`no stream for ${entry.fileName}`));
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The parts of manifest.json the test reads. */
interface Manifest {
  format: string;
  files: { path: string; size: number; sha256: string }[];
  documents: { path: string; sha256: string }[];
}

test('exports a folder for an examiner; the zip matches the corpus and verifies', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const folder = `Examiner ${Date.now()}`;
  await createFolder(page, folder);
  await page.getByRole('link', { name: folder, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: folder })).toBeVisible();
  await page.getByLabel('Upload files').setInputFiles(FILES.map((name) => path.join(CORPUS, name)));
  for (const name of FILES) await expect(row(page, name)).toHaveCount(1, { timeout: 60_000 });

  // From Home, the folder's side panel: "Export for examiner", this folder, Export.
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  const panel = await openDetailsFromRow(page, folder);
  await panel.getByRole('button', { name: 'Export for examiner' }).click();
  const dialog = await settled(page.getByRole('dialog', { name: 'Export for an examiner' }));
  await expect(
    dialog.getByRole('radio', { name: new RegExp(`This folder, “${folder}”`) }),
  ).toBeChecked();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export' }).click(),
  ]);
  const zipFile = path.join(workDir, download.suggestedFilename());
  expect(zipFile).toMatch(/\.zip$/);
  await download.saveAs(zipFile);
  expect(await download.failure()).toBeNull();
  // The dialog follows the server's progress to the end.
  await expect(dialog.getByText(/^Export complete: 3 files/)).toBeVisible({ timeout: 60_000 });

  const entries = await zipContents(zipFile);
  const names = [...entries.keys()];
  expect(names).toEqual(
    expect.arrayContaining([
      EXAMINER_DOCUMENTS.manifest,
      EXAMINER_DOCUMENTS.index,
      EXAMINER_DOCUMENTS.history,
      ...FILES.map((name) => `${EXAMINER_FILES_DIR}/${folder}/${name}`),
    ]),
  );
  const manifest = JSON.parse(
    entries.get(EXAMINER_DOCUMENTS.manifest)!.toString('utf8'),
  ) as Manifest;
  expect(manifest.format).toBe('dossier-examiner-export-v1');
  expect(manifest.files).toHaveLength(FILES.length);
  for (const name of FILES) {
    const bytes = readFileSync(path.join(CORPUS, name));
    const listed = manifest.files.find((f) => f.path === `${EXAMINER_FILES_DIR}/${folder}/${name}`);
    expect(listed, name).toBeDefined();
    expect(listed!.sha256).toBe(sha256(bytes));
    expect(listed!.size).toBe(bytes.length);
    expect(sha256(entries.get(listed!.path)!)).toBe(sha256(bytes));
  }
  // index.csv lists each file; history.csv holds the uploads of the folder.
  const index = entries.get(EXAMINER_DOCUMENTS.index)!.toString('utf8');
  for (const name of FILES) expect(index).toContain(name);
  const history = entries.get(EXAMINER_DOCUMENTS.history)!.toString('utf8');
  expect(history.split('\n').filter((line) => line.trim() !== '').length).toBeGreaterThan(
    FILES.length,
  );

  // The documented verifier, without any database.
  const verify = spawnSync('npx', ['tsx', 'server/cli/historyVerify.ts', '--export', zipFile], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(verify.stderr).toBe('');
  expect(verify.stdout).toContain(`files: ${FILES.length} checked`);
  expect(verify.stdout.trim().split('\n').at(-1)).toBe(
    'OK: every file and every history event matches the manifest.',
  );
  expect(verify.status).toBe(0);
});
