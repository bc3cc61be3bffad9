/**
 * The examiner's export zip (docs/examiner-export.md): streamed with zip-stream like the folder
 * zip (services/zip.ts), one entry at a time, the response's backpressure pacing every read, so
 * memory does not grow with the bytes or the events exported.
 *
 * Entries, in order:
 * 1. `files/<folder path>/<name>`: every live file of the scope at its folder path from the firm's
 *    root (folders as directory entries, so empty folders survive); with `versions: 'all'` older
 *    versions under `versions/<file id>/<number>/<name>` ({@link versionsToExport}). Each file's
 *    sha256 and size are computed from the bytes as they are written.
 * 2. `index.csv`: one row per file written (path, name, id, version, size, sha256, created,
 *    modified, creator, linked contacts, then one column per index field of the firm).
 * 3. `history.csv`: the scope's history events, oldest first, as History's export writes them
 *    (services/historyCsv.ts, the records stored with each event).
 * 4. `manifest.json`: the scope, the time, who exported, the history event that records the export
 *    (a whole chain link), every file's path, size and sha256, the documents' sizes and sha256s, and
 *    the chain link (seq, previous hash, hash) of every exported event.
 * Rows of index.csv, and the manifest's lists of files and events, are spooled to files under
 * DATA_DIR/export-spool while the zip is written and streamed into it at the end: memory holds a
 * batch, never the lists.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import ZipStream from 'zip-stream';
import { versionsOf } from '../repositories/fileVersions';
import {
  EXAMINER_DOCUMENTS,
  EXAMINER_FILES_DIR,
  EXAMINER_MANIFEST_FORMAT,
  type ExaminerExportPhase,
  type ExaminerScopeDescription,
  type ExportVersions,
} from '@common/examinerExport';
import { PRODUCT_NAME } from '@common/constants';
import { appliedIndexesOf } from '../repositories/appliedIndexes';
import {
  contactNamesOfFolders,
  rangeFilesAfter,
  openScopeEventReader,
  type EventScope,
  type ScopeEventReader,
} from '../repositories/examinerExports';
import { listLiveFilesAfter, type FileWithCreator } from '../repositories/files';
import { listLiveFoldersAfter } from '../repositories/folders';
import { listIndexFields } from '../repositories/indexFields';
import type { ListPosition } from '../repositories/listOrder';
import { folderChains } from '../repositories/lists';
import type { Executor } from '../repositories/types';
import { displayName } from '../presenters';
import type { Services } from './context';
import type { ChainLink } from './historyChain';
import { csvCell, csvText, CSV_NEWLINE, HISTORY_CSV_COLUMNS } from './historyCsv';
import { recordsOf } from './historyReports';
import { deflates, segment, writeEntry, ZIP64_THRESHOLD } from './zip';

/** Rows read per query while walking the scope (files, folders, events). */
export const EXAMINER_BATCH = 500;

/** History events read per query. */
export const EXAMINER_EVENT_BATCH = 1000;

/** The folder of the zip that holds the older versions of files (`versions: 'all'`). */
export const EXAMINER_VERSIONS_DIR = 'versions';

/** Byte order mark: spreadsheets then read the CSV files as UTF-8. */
const BOM = '\ufeff';

/** CSV records per chunk of history.csv (small strings stay in V8's young generation). */
const RECORDS_PER_CHUNK = 100;

/** Folder paths and contacts remembered while a date range is walked (then forgotten). */
const FOLDER_CACHE_LIMIT = 5000;

/** A folder of the scope where a tree walk starts. */
export interface ExportRoot {
  /** The folder's id ('' for the firm's root). */
  id: string;
  updated_at: string;
  /** Its path in the zip, without a trailing slash (`files/Clients/Smith`; `files` for the root). */
  path: string;
  /** Names of the contacts linked to it or to a folder above it. */
  contacts: string[];
}

/** A file of the export and where it goes. */
export interface ExportFile {
  row: FileWithCreator;
  /** The newest version's path in the zip. */
  path: string;
  /** Names of the contacts linked to its folder or a folder above it. */
  contacts: readonly string[];
}

/** What a walk of the scope yields: a folder's directory entry, or a batch of its files. */
export type ExportBatch =
  { kind: 'directory'; path: string; date: Date } | { kind: 'files'; files: ExportFile[] };

/** Contact names per folder id, in name order, for some folders. */
async function contactsByFolder(
  db: Executor,
  databaseId: string,
  folderIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byFolder = new Map<string, string[]>();
  for (const { folder_id, name } of await contactNamesOfFolders(db, databaseId, folderIds)) {
    const names = byFolder.get(folder_id) ?? [];
    names.push(name);
    byFolder.set(folder_id, names);
  }
  return byFolder;
}

/** Contacts of a folder added to those inherited from above, each name once. */
function withContacts(inherited: readonly string[], own: readonly string[] | undefined): string[] {
  return own && own.length > 0 ? [...new Set([...inherited, ...own])] : [...inherited];
}

/**
 * The live tree under a folder, depth first: its directory entry, its files by name in batches,
 * then each subfolder's tree by name. Memory: one batch of subfolders per level.
 */
async function* walkTree(
  db: Executor,
  databaseId: string,
  root: ExportRoot,
): AsyncGenerator<ExportBatch> {
  yield { kind: 'directory', path: `${root.path}/`, date: new Date(root.updated_at) };
  let afterFile: ListPosition | null = null;
  for (;;) {
    const files = await listLiveFilesAfter(db, databaseId, root.id, afterFile, EXAMINER_BATCH);
    if (files.length > 0) {
      yield {
        kind: 'files',
        files: files.map((row) => ({
          row,
          path: `${root.path}/${segment(row.name)}`,
          contacts: root.contacts,
        })),
      };
    }
    const last = files[files.length - 1];
    if (!last || files.length < EXAMINER_BATCH) break;
    afterFile = [last.name_key, last.id];
  }
  let afterFolder: ListPosition | null = null;
  for (;;) {
    const folders = await listLiveFoldersAfter(
      db,
      databaseId,
      root.id,
      afterFolder,
      EXAMINER_BATCH,
    );
    const contacts = await contactsByFolder(
      db,
      databaseId,
      folders.map((f) => f.id),
    );
    for (const sub of folders) {
      yield* walkTree(db, databaseId, {
        id: sub.id,
        updated_at: sub.updated_at,
        path: `${root.path}/${segment(sub.name)}`,
        contacts: withContacts(root.contacts, contacts.get(sub.id)),
      });
    }
    const last = folders[folders.length - 1];
    if (!last || folders.length < EXAMINER_BATCH) break;
    afterFolder = [last.name_key, last.id];
  }
}

/** Every root's tree, one after the other. */
export async function* walkRoots(
  db: Executor,
  databaseId: string,
  roots: readonly ExportRoot[],
): AsyncGenerator<ExportBatch> {
  for (const root of roots) yield* walkTree(db, databaseId, root);
}

/**
 * The live files created or changed in a date range, by id in batches, each at its folder's path
 * (the folder's chain read once per batch for the folders not seen lately) with the contacts of
 * its folder and the folders above it. No directory entries.
 */
export async function* walkRange(
  db: Executor,
  databaseId: string,
  range: { start: string; end: string },
): AsyncGenerator<ExportBatch> {
  const folders = new Map<string, { path: string; contacts: string[] }>();
  folders.set('', { path: EXAMINER_FILES_DIR, contacts: [] });
  let afterId: string | null = null;
  for (;;) {
    const rows = await rangeFilesAfter(db, databaseId, range, afterId, EXAMINER_BATCH);
    const unknown = [...new Set(rows.map((r) => r.folder_id))].filter((id) => !folders.has(id));
    if (unknown.length > 0) {
      if (folders.size + unknown.length > FOLDER_CACHE_LIMIT) {
        folders.clear();
        folders.set('', { path: EXAMINER_FILES_DIR, contacts: [] });
      }
      const chains = await folderChains(db, databaseId, unknown);
      const contacts = await contactsByFolder(db, databaseId, [
        ...new Set([...chains.values()].flat().map((c) => c.id)),
      ]);
      for (const id of unknown) {
        const chain = chains.get(id) ?? [];
        folders.set(id, {
          path: [EXAMINER_FILES_DIR, ...chain.map((c) => segment(c.name))].join('/'),
          contacts: chain.reduce<string[]>((acc, c) => withContacts(acc, contacts.get(c.id)), []),
        });
      }
    }
    if (rows.length > 0) {
      yield {
        kind: 'files',
        files: rows.map((row) => {
          const folder = folders.get(row.folder_id)!;
          return { row, path: `${folder.path}/${segment(row.name)}`, contacts: folder.contacts };
        }),
      };
    }
    if (rows.length < EXAMINER_BATCH) return;
    afterId = rows[rows.length - 1]!.id;
  }
}

/** One stored version of a file, as the export writes it. */
export interface ExportVersion {
  /** The version's number, or null when the file has no recorded versions (its current bytes). */
  number: number | null;
  /** The file's current bytes (written at the file's path; older ones under versions/). */
  newest: boolean;
  storage_key: string;
  size: number;
  /** The sha256 recorded when these bytes were uploaded, or null when none was recorded. */
  recorded_sha256: string | null;
  created_at: string;
}

/** A file's current bytes as its newest version. */
export function newestVersion(file: FileWithCreator): ExportVersion {
  return {
    number: null,
    newest: true,
    storage_key: file.storage_key,
    size: Number(file.size),
    recorded_sha256: file.sha256,
    created_at: file.updated_at,
  };
}

/**
 * Every stored version of a file, oldest first, the newest last: the one place the export reads
 * file versions (file_versions). A file recorded without version rows answers its current bytes.
 */
export async function listFileVersions(
  db: Executor,
  databaseId: string,
  file: FileWithCreator,
): Promise<ExportVersion[]> {
  const rows = await versionsOf(db, databaseId, file.id);
  if (rows.length === 0) return [newestVersion(file)];
  const newest = rows[0]!.number;
  return rows.reverse().map((row) => ({
    number: Number(row.number),
    newest: row.number === newest,
    storage_key: row.storage_key,
    size: Number(row.size),
    recorded_sha256: row.sha256,
    created_at: row.created_at,
  }));
}

/** The versions of a file the export writes: the newest, or every stored one. */
export async function versionsToExport(
  db: Executor,
  databaseId: string,
  file: FileWithCreator,
  versions: ExportVersions,
): Promise<ExportVersion[]> {
  if (versions === 'newest') return [newestVersion(file)];
  return listFileVersions(db, databaseId, file);
}

/** Where a version goes in the zip: the newest at the file's path, older ones under versions/. */
export function versionPath(file: ExportFile, version: ExportVersion): string {
  if (version.newest) return file.path;
  return `${EXAMINER_VERSIONS_DIR}/${file.row.id}/${version.number ?? 0}/${segment(file.row.name)}`;
}

/** Passes bytes through while counting them and computing their sha256. */
class Fingerprint extends Transform {
  private readonly hash = createHash('sha256');
  /** Bytes passed so far. */
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  /** The hex sha256 of everything passed (call once, after the end). */
  digest(): string {
    return this.hash.digest('hex');
  }
}

/** A written entry's path, size and sha256. */
export interface WrittenEntry {
  path: string;
  size: number;
  sha256: string;
}

/** Writes an entry from a source, fingerprinted on its way into the zip. */
async function writeFingerprinted(
  zip: ZipStream,
  source: Readable,
  name: string,
  options: { date: Date; store: boolean },
): Promise<WrittenEntry> {
  const fingerprint = new Fingerprint();
  pipeline(source, fingerprint, () => {
    // An error reaches writeEntry through the fingerprint stream, which pipeline destroys.
  });
  await writeEntry(zip, fingerprint, { name, date: options.date, store: options.store });
  return { path: name, size: fingerprint.bytes, sha256: fingerprint.digest() };
}

/** A text file written line by line, honouring backpressure. */
class Spool {
  private readonly out: WriteStream;
  private count = 0;

  constructor(readonly file: string) {
    this.out = createWriteStream(file);
  }

  /** Appends text. */
  async write(text: string): Promise<void> {
    // events.once rejects on 'error' and removes both listeners either way: a listener added per
    // wait and never removed would pile up over a large scope's thousands of waits.
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  /** Appends one JSON list item (a comma and a line break before every item but the first). */
  item(value: unknown): Promise<void> {
    const text = `${this.count === 0 ? '' : ',\n'}${JSON.stringify(value)}`;
    this.count += 1;
    return this.write(text);
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }

  /** Closes the file without waiting (after a failure). */
  destroy(): void {
    this.out.destroy();
  }
}

/** Counts of what was written, for the progress. */
export interface ExportCounts {
  files: number;
  bytes: number;
  events: number;
}

/** What the writer reports as it goes. */
export interface ExportHooks {
  /** Called after each file and each batch of events (the caller decides how often to store it). */
  progress(phase: ExaminerExportPhase, counts: ExportCounts): Promise<void>;
  /** Called once the response has taken the whole zip. */
  done(manifestSha256: string, counts: ExportCounts): Promise<void>;
  /** Called when the zip could not be completed (the response is cut). */
  failed(error: Error): Promise<void>;
}

/** Everything the writer needs, resolved by services/examinerExport.ts. */
export interface ExaminerZipPlan {
  services: Pick<Services, 'db' | 'dialect' | 'store' | 'config'>;
  firm: { id: string; name: string };
  scope: ExaminerScopeDescription;
  versions: ExportVersions;
  exportedBy: { user_id: string; name: string };
  /** The history event that records the export: the chain's head when the export started. */
  exportEvent: ChainLink;
  /** The scope's files, as the walk yields them. */
  batches: AsyncIterable<ExportBatch>;
  /** The scope's history events (those before the export event). */
  events: EventScope;
  /** Bytes the files are expected to take: Zip64 records from the start when they may pass 4 GiB. */
  expectedBytes: number;
}

/** The manifest's record of one written file version. */
interface ManifestFile {
  path: string;
  file_id: string;
  version: number | null;
  newest: boolean;
  size: number;
  sha256: string;
  /** sha256 recorded at upload, when one was; the verifier reports a difference. */
  recorded_sha256: string | null;
}

/** Where spool files go: DATA_DIR/export-spool, one folder per export. */
function spoolRoot(dataDir: string): string {
  return path.join(dataDir, 'export-spool');
}

/** Spool folders older than this were left by a process that stopped mid-export. */
const STALE_SPOOL_MS = 24 * 3600_000;

/** Removes spool folders left by exports that never finished (a stopped process). */
async function removeStaleSpools(root: string, now: number): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const dir = path.join(root, name);
    const info = await stat(dir).catch(() => null);
    if (info && now - info.mtimeMs > STALE_SPOOL_MS) {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Starts writing the zip of a plan and answers its byte stream at once; the entries are written
 * as the consumer reads. The hooks learn the progress and the outcome.
 */
export function openExaminerZip(plan: ExaminerZipPlan, hooks: ExportHooks): Readable {
  const zip = new ZipStream({
    zlib: { level: 6 },
    forceZip64: plan.expectedBytes >= ZIP64_THRESHOLD,
  });
  void writeAll(zip, plan, hooks);
  return zip;
}

/** The columns of index.csv: fixed ones, then one per index field. */
export const INDEX_CSV_COLUMNS = [
  'path',
  'name',
  'file_id',
  'version',
  'size',
  'sha256',
  'created_at',
  'modified_at',
  'created_by',
  'contacts',
] as const;

/** Writes every entry, then finalizes the zip; reports the outcome to the hooks. */
async function writeAll(zip: ZipStream, plan: ExaminerZipPlan, hooks: ExportHooks): Promise<void> {
  const { db } = plan.services;
  const databaseId = plan.firm.id;
  const root = spoolRoot(plan.services.config.dataDir);
  let dir: string | null = null;
  const spools: Spool[] = [];
  let events: ScopeEventReader | null = null;
  const counts: ExportCounts = { files: 0, bytes: 0, events: 0 };
  try {
    await mkdir(root, { recursive: true });
    await removeStaleSpools(root, Date.now());
    dir = await mkdtemp(path.join(root, 'export-'));
    const index = new Spool(path.join(dir, 'index.csv'));
    const files = new Spool(path.join(dir, 'files.json'));
    const links = new Spool(path.join(dir, 'events.json'));
    spools.push(index, files, links);
    const fields = await listIndexFields(db, databaseId);
    await index.write(
      `${BOM}${csvText([[...INDEX_CSV_COLUMNS, ...fields.map((f) => `index: ${f.name}`)]])}${CSV_NEWLINE}`,
    );

    // 1. The files.
    for await (const batch of plan.batches) {
      if (zip.destroyed) throw new Error('The zip stream was closed.');
      if (batch.kind === 'directory') {
        await writeEntry(zip, null, { name: batch.path, type: 'directory', date: batch.date });
        continue;
      }
      const values = new Map<string, Map<string, string>>();
      const applied = await appliedIndexesOf(
        db,
        databaseId,
        batch.files.map((f) => f.row.id),
        { liveOnly: true },
      );
      for (const value of applied) {
        const byField = values.get(value.entity_id) ?? new Map<string, string>();
        if (!byField.has(value.index_field_id)) byField.set(value.index_field_id, value.value);
        values.set(value.entity_id, byField);
      }
      for (const file of batch.files) {
        for (const version of await versionsToExport(db, databaseId, file.row, plan.versions)) {
          const entryPath = versionPath(file, version);
          const written = await writeFingerprinted(
            zip,
            plan.services.store.read(version.storage_key),
            entryPath,
            { date: new Date(version.created_at), store: !deflates(file.row.extension) },
          );
          const entry: ManifestFile = {
            path: entryPath,
            file_id: file.row.id,
            version: version.number,
            newest: version.newest,
            size: written.size,
            sha256: written.sha256,
            recorded_sha256: version.recorded_sha256,
          };
          await files.item(entry);
          const byField = values.get(file.row.id);
          await index.write(
            `${csvText([
              [
                entryPath,
                file.row.name,
                file.row.id,
                version.number === null ? '' : String(version.number),
                String(written.size),
                written.sha256,
                file.row.created_at,
                version.created_at,
                displayName(file.row.creator_first ?? '', file.row.creator_last ?? ''),
                file.contacts.join('; '),
                ...fields.map((f) => byField?.get(f.id) ?? ''),
              ].map(csvCell),
            ])}${CSV_NEWLINE}`,
          );
          counts.files += 1;
          counts.bytes += written.size;
          await hooks.progress('files', counts);
        }
      }
    }
    const now = new Date();

    // 2. index.csv.
    await index.close();
    await hooks.progress('index', counts);
    const indexEntry = await writeFingerprinted(
      zip,
      createReadStream(index.file),
      EXAMINER_DOCUMENTS.index,
      { date: now, store: false },
    );

    // 3. history.csv, oldest first; each event's chain link is spooled for the manifest.
    const reader = await openScopeEventReader(db, plan.services.dialect, databaseId, plan.events);
    events = reader;
    let firstSeq: number | null = null;
    let lastSeq: number | null = null;
    let contiguous = true;
    const history = async function* (): AsyncGenerator<string> {
      yield `${BOM}${csvText([[...HISTORY_CSV_COLUMNS]])}${CSV_NEWLINE}`;
      let afterId: string | null = null;
      for (;;) {
        const rows = await reader.after(afterId, plan.exportEvent.id, EXAMINER_EVENT_BATCH);
        const records = await recordsOf(plan.services, databaseId, rows);
        for (const row of rows) {
          if (lastSeq !== null && row.chain_seq !== lastSeq + 1) contiguous = false;
          firstSeq ??= row.chain_seq;
          lastSeq = row.chain_seq;
          await links.item({
            id: row.id,
            chain_seq: row.chain_seq,
            prev_hash: row.prev_hash,
            hash: row.hash,
          });
        }
        for (let i = 0; i < records.length; i += RECORDS_PER_CHUNK) {
          yield `${records.slice(i, i + RECORDS_PER_CHUNK).join(CSV_NEWLINE)}${CSV_NEWLINE}`;
        }
        counts.events += rows.length;
        await hooks.progress('history', counts);
        if (rows.length < EXAMINER_EVENT_BATCH) return;
        afterId = rows[rows.length - 1]!.id;
      }
    };
    const historyEntry = await writeFingerprinted(
      zip,
      Readable.from(history(), { objectMode: false }),
      EXAMINER_DOCUMENTS.history,
      { date: now, store: false },
    );

    // 4. manifest.json.
    await files.close();
    await links.close();
    await hooks.progress('manifest', counts);
    const complete =
      counts.events === plan.exportEvent.chain_seq - 1 &&
      (counts.events === 0 || (firstSeq === 1 && contiguous));
    const manifest = manifestText({
      head: {
        format: EXAMINER_MANIFEST_FORMAT,
        product: PRODUCT_NAME,
        firm: plan.firm,
        scope: plan.scope,
        versions: plan.versions,
        exported_at: plan.exportEvent.created_at,
        exported_by: plan.exportedBy,
        hash_algorithm: 'sha256',
        files_dir: EXAMINER_FILES_DIR,
        export_event: plan.exportEvent,
        totals: counts,
        documents: [indexEntry, historyEntry],
      },
      history: {
        chain_format: 'dossier-history-v1',
        database_id: databaseId,
        count: counts.events,
        first_seq: firstSeq,
        last_seq: lastSeq,
        complete,
      },
      filesFile: files.file,
      eventsFile: links.file,
    });
    const manifestEntry = await writeFingerprinted(
      zip,
      Readable.from(manifest, { objectMode: false }),
      EXAMINER_DOCUMENTS.manifest,
      { date: now, store: false },
    );
    const ended = new Promise<void>((resolve, reject) => {
      zip.once('end', resolve);
      zip.once('close', () => reject(new Error('The zip stream was closed.')));
      zip.once('error', reject);
    });
    zip.finalize();
    await ended;
    await hooks.done(manifestEntry.sha256, counts);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (!zip.destroyed) zip.destroy(failure);
    await hooks.failed(failure).catch(() => undefined);
  } finally {
    events?.close();
    for (const spool of spools) spool.destroy();
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The manifest's parts: its small fields, the history's, and the spooled lists. */
interface ManifestParts {
  head: Record<string, unknown>;
  history: Record<string, unknown>;
  filesFile: string;
  eventsFile: string;
}

/**
 * manifest.json as text chunks: the small fields (indented), `files` with one file per line, and
 * `history` with one event's chain link per line, the lists read from their spool files.
 */
async function* manifestText(parts: ManifestParts): AsyncGenerator<string | Buffer> {
  const head = JSON.stringify(parts.head, null, 2);
  yield `${head.slice(0, head.lastIndexOf('\n}'))},\n  "files": [\n`;
  yield* createReadStream(parts.filesFile);
  const history = Object.entries(parts.history)
    .map(([key, value]) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(',\n');
  yield `\n  ],\n  "history": {\n${history},\n    "events": [\n`;
  yield* createReadStream(parts.eventsFile);
  yield '\n    ]\n  }\n}\n';
}
