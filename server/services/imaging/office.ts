/**
 * PDF renditions by LibreOffice headless (docs/architecture.md "Document imaging"): office
 * documents, RTF, CSV, EPUB, HTML and SVG (their safe rendition: they are never served inline),
 * and rasters recognition cannot read directly. Each conversion runs with a private profile
 * directory (-env:UserInstallation) that no other conversion uses at the same time: concurrent
 * LibreOffice processes sharing a profile block each other. The profile routes every HTTP and
 * HTTPS request through a proxy at a closed port (127.0.0.1:9): a document or HTML page naming a
 * remote image or style sheet makes LibreOffice fetch it, which would let an uploaded file make the
 * server call other machines; with the proxy every such fetch fails and the conversion goes on.
 * It also blocks links from untrusted documents (BlockUntrustedRefererLinks): an HTML page or
 * document linking a file of the server (`file:///…` or an absolute path) would otherwise have
 * that file's image embedded in its rendition. Images embedded in the document itself stay.
 */
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PermanentJobError } from './worker';
import { errorTail, runTool, type RunOptions } from './runner';

/** The profile settings: web requests to a closed port, no links followed from documents. */
const NO_NETWORK_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  ['ooInetProxyType', '1'],
  ['ooInetHTTPProxyName', '127.0.0.1'],
  ['ooInetHTTPProxyPort', '9'],
  ['ooInetHTTPSProxyName', '127.0.0.1'],
  ['ooInetHTTPSProxyPort', '9'],
  ['ooInetFTPProxyName', '127.0.0.1'],
  ['ooInetFTPProxyPort', '9'],
  ['ooInetNoProxy', ''],
]
  .map(
    ([name, value]) =>
      `<item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`,
  )
  .join('\n')}
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`;

/** Profiles not in use, and how many exist. */
const profiles = { free: [] as string[], created: 0 };

/** The name of a profile directory in the temporary folder: `dossier-libreoffice-<pid>-<n>`. */
const PROFILE_NAME = /^dossier-libreoffice-(\d+)-\d+$/;

/** Whether a process with this id is running (signal 0 only checks; EPERM means it exists). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the LibreOffice profiles this process is not using (when its worker stops) and those
 * left in `tmpDir` by processes that no longer run (at start-up). Each profile holds a few MiB of
 * LibreOffice's user settings and caches.
 * @param tmpDir the temporary folder profiles are made in (the OS's by default)
 * @returns how many profile directories were removed
 */
export async function removeLibreOfficeProfiles(tmpDir = os.tmpdir()): Promise<number> {
  let removed = 0;
  for (const dir of profiles.free.splice(0)) {
    await rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = PROFILE_NAME.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    await rm(path.join(tmpDir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** A profile directory for one conversion (created on first use; given back by the caller). */
async function takeProfile(): Promise<string> {
  const free = profiles.free.pop();
  if (free) return free;
  profiles.created += 1;
  const dir = path.join(os.tmpdir(), `dossier-libreoffice-${process.pid}-${profiles.created}`);
  await mkdir(path.join(dir, 'user'), { recursive: true });
  await writeFile(path.join(dir, 'user', 'registrymodifications.xcu'), NO_NETWORK_SETTINGS);
  return dir;
}

/**
 * LibreOffice's arguments for converting `input` to a PDF in `outDir` with the profile directory
 * `profile`.
 */
export function conversionArgs(profile: string, input: string, outDir: string): string[] {
  return [
    `-env:UserInstallation=${pathToFileURL(profile).href}`,
    '--headless',
    '--norestore',
    '--nologo',
    '--nolockcheck',
    '--nodefault',
    // HTML through Writer/Web comes out as a PDF without its text; as a Writer document with it.
    ...(/\.html?$/i.test(input) ? ['--infilter=HTML (StarWriter)'] : []),
    '--convert-to',
    'pdf',
    '--outdir',
    outDir,
    input,
  ];
}

/**
 * Converts `input` to PDF in `dir` with LibreOffice.
 * @returns the PDF's path
 * @throws PermanentJobError when LibreOffice cannot read the file; Error when it wrote nothing
 *   otherwise (retried); the runner's errors (a missing LibreOffice gives up with its install
 *   command)
 */
export async function convertToPdf(
  input: string,
  dir: string,
  options: RunOptions,
): Promise<string> {
  // A folder of its own: a PDF found there afterwards is this conversion's.
  const outDir = await mkdtemp(path.join(dir, 'office-'));
  const profile = await takeProfile();
  try {
    const result = await runTool('soffice', conversionArgs(profile, input, outDir), options);
    const output = path.join(outDir, `${path.parse(input).name}.pdf`);
    const written = await access(output).then(
      () => true,
      () => false,
    );
    if (written) return output;
    const said = errorTail(`${result.stdout}\n${result.stderr}`);
    if (/could not be loaded/i.test(said)) {
      throw new PermanentJobError(
        'LibreOffice could not read the file (damaged or not a document).',
      );
    }
    throw new Error(`LibreOffice wrote no PDF (exit code ${result.code}): ${said}`);
  } finally {
    profiles.free.push(profile);
  }
}
