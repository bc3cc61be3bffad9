/**
 * Verifies an examiner's export zip without Dossier's database (`npm run history:verify --
 * --export FILE.zip`; docs/examiner-export.md gives the same procedure with standard tools):
 * - every file the manifest lists is in the zip with that size and sha256, none is missing and the
 *   zip holds no file the manifest does not list; a file whose bytes differ from the sha256
 *   recorded when it was uploaded is reported too;
 * - index.csv and history.csv have the sizes and sha256s the manifest gives, and index.csv lists
 *   the manifest's files (id, size, sha256) in its order;
 * - each history.csv row, with its chain link from the manifest (previous hash) and the firm's id,
 *   hashes to its link's hash (chain format v1, services/historyChain.ts); consecutive events link
 *   (each one's previous hash is the hash before it); the export's own event hashes to its hash;
 *   and when the manifest says the history is complete, the events run from the chain's first link
 *   to the export's event without a gap.
 * Reads the zip with yauzl, one entry at a time (memory holds the manifest and the zip's list of
 * entries, not the files).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import yauzl from 'yauzl';
import {
  EXAMINER_DOCUMENTS,
  EXAMINER_MANIFEST_FORMAT,
  type ExaminerScopeDescription,
} from '@common/examinerExport';
import { chainHash, GENESIS_HASH, type ChainContent, type ChainLink } from './historyChain';
import { HISTORY_CSV_COLUMNS } from './historyCsv';
import { INDEX_CSV_COLUMNS } from './examinerZip';

/** Problems listed one by one at most; beyond, only counted. */
const MAX_LISTED = 50;

/** The manifest as the verifier reads it (the fields it checks). */
interface Manifest {
  format: string;
  firm: { id: string; name: string };
  scope: ExaminerScopeDescription;
  exported_at: string;
  exported_by: { user_id: string; name: string };
  export_event: ChainLink;
  documents: { path: string; size: number; sha256: string }[];
  files: {
    path: string;
    file_id: string;
    size: number;
    sha256: string;
    recorded_sha256: string | null;
  }[];
  history: {
    database_id: string;
    count: number;
    complete: boolean;
    events: { id: string; chain_seq: number; prev_hash: string; hash: string }[];
  };
}

/** The outcome of a verification. */
export interface ExportVerification {
  ok: boolean;
  /** What the manifest says the export is (null when it could not be read). */
  summary: {
    firm: string;
    scope: ExaminerScopeDescription;
    exported_at: string;
    exported_by: string;
  } | null;
  filesChecked: number;
  bytesChecked: number;
  documentsChecked: number;
  eventsChecked: number;
  /** Pairs of consecutive exported events whose link was checked. */
  linksChecked: number;
  /** Places where events outside the scope lie between two exported ones. */
  gaps: number;
  /** The manifest says the history is the whole chain up to the export, and it is. */
  completeChain: boolean;
  exportEvent: { seq: number; hash: string } | null;
  /** What failed, in words (at most MAX_LISTED; `problemCount` counts all). */
  problems: string[];
  problemCount: number;
}

/** An open zip: its entries by name. */
interface OpenZip {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  duplicates: string[];
}

function openZip(file: string): Promise<OpenZip> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, yauzl.Entry>();
      const duplicates: string[] = [];
      zip.on('error', reject);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.has(entry.fileName)) duplicates.push(entry.fileName);
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve({ zip, entries, duplicates }));
      zip.readEntry();
    });
  });
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

/** The size and sha256 of an entry's bytes. */
async function fingerprint(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of await entryStream(zip, entry)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** An entry's text (UTF-8). */
async function entryText(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await entryStream(zip, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The CSV records of an entry, streamed (a leading byte order mark dropped). */
async function* csvRecords(zip: yauzl.ZipFile, entry: yauzl.Entry): AsyncGenerator<string[]> {
  const parser = (await entryStream(zip, entry)).pipe(parse({ bom: true }));
  for await (const record of parser) yield record as string[];
}

/** First characters that the CSV writer guards with a leading apostrophe (historyCsv csvCell). */
const GUARDED = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * What a cell may have been before it was written: itself, or without the apostrophe the formula
 * guard put before it; for a nullable column an empty cell may also have been null.
 */
function cellValues(cell: string, nullable: boolean): (string | null)[] {
  const values: (string | null)[] = [];
  if (cell.length > 1 && cell[0] === "'" && GUARDED.has(cell[1]!)) values.push(cell.slice(1));
  values.push(cell);
  if (nullable && cell === '') values.unshift(null);
  return values;
}

/** The columns of a history.csv row that the chain's content holds, and whether they may be null. */
const CONTENT_CELLS = [
  ['id', 'id', false],
  ['created_at', 'created_at', false],
  ['user_name', 'user', false],
  ['user_id', 'user_id', false],
  ['entity_type', 'entity_type', false],
  ['action', 'action', false],
  ['entity_id', 'entity_id', false],
  ['item_id', 'item_id', true],
  ['ip', 'ip', true],
  ['user_agent', 'user_agent', true],
  ['attributes', 'attributes', false],
] as const;

/**
 * Whether some reading of a history.csv row (see cellValues) is the content that hashes to the
 * link's hash.
 */
function rowMatchesLink(
  row: Record<string, string>,
  databaseId: string,
  link: { chain_seq: number; prev_hash: string; hash: string },
): boolean {
  const options = CONTENT_CELLS.map(([, column, nullable]) =>
    cellValues(row[column] ?? '', nullable),
  );
  const picks = options.map(() => 0);
  for (;;) {
    const content: Record<string, unknown> = { database_id: databaseId, chain_seq: link.chain_seq };
    CONTENT_CELLS.forEach(([key], i) => (content[key] = options[i]![picks[i]!]));
    if (chainHash(link.prev_hash, content as unknown as ChainContent) === link.hash) return true;
    // The next combination (readings are few: most cells have one).
    let i = 0;
    while (i < picks.length && picks[i]! + 1 >= options[i]!.length) {
      picks[i] = 0;
      i += 1;
    }
    if (i === picks.length) return false;
    picks[i]! += 1;
  }
}

/**
 * Verifies an export zip against its manifest and the history chain.
 * @param file the zip's path
 * @throws Error when the file is not a readable zip
 */
export async function verifyExaminerExport(file: string): Promise<ExportVerification> {
  const result: ExportVerification = {
    ok: false,
    summary: null,
    filesChecked: 0,
    bytesChecked: 0,
    documentsChecked: 0,
    eventsChecked: 0,
    linksChecked: 0,
    gaps: 0,
    completeChain: false,
    exportEvent: null,
    problems: [],
    problemCount: 0,
  };
  const problem = (text: string) => {
    result.problemCount += 1;
    if (result.problems.length < MAX_LISTED) result.problems.push(text);
  };
  const { zip, entries, duplicates } = await openZip(file);
  try {
    for (const name of duplicates) problem(`${name}: in the zip more than once`);
    const manifestEntry = entries.get(EXAMINER_DOCUMENTS.manifest);
    if (!manifestEntry) {
      problem(`${EXAMINER_DOCUMENTS.manifest}: not in the zip`);
      return result;
    }
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await entryText(zip, manifestEntry)) as Manifest;
    } catch {
      problem(`${EXAMINER_DOCUMENTS.manifest}: not valid JSON`);
      return result;
    }
    if (manifest.format !== EXAMINER_MANIFEST_FORMAT) {
      problem(`${EXAMINER_DOCUMENTS.manifest}: unknown format "${String(manifest.format)}"`);
      return result;
    }
    result.summary = {
      firm: `${manifest.firm.name} (${manifest.firm.id})`,
      scope: manifest.scope,
      exported_at: manifest.exported_at,
      exported_by: `${manifest.exported_by.name} (${manifest.exported_by.user_id})`,
    };

    // Files.
    const listed = new Set<string>([EXAMINER_DOCUMENTS.manifest]);
    for (const item of manifest.files) {
      listed.add(item.path);
      const entry = entries.get(item.path);
      if (!entry) {
        problem(`${item.path}: listed in the manifest but not in the zip`);
        continue;
      }
      const actual = await fingerprint(zip, entry);
      result.filesChecked += 1;
      result.bytesChecked += actual.size;
      if (actual.size !== item.size) {
        problem(`${item.path}: ${actual.size} bytes, the manifest says ${item.size}`);
      }
      if (actual.sha256 !== item.sha256) {
        problem(`${item.path}: sha256 ${actual.sha256}, the manifest says ${item.sha256}`);
      } else if (item.recorded_sha256 && item.recorded_sha256 !== item.sha256) {
        problem(
          `${item.path}: its bytes differ from the sha256 recorded at upload (${item.recorded_sha256})`,
        );
      }
    }

    // Documents.
    for (const doc of manifest.documents) {
      listed.add(doc.path);
      const entry = entries.get(doc.path);
      if (!entry) {
        problem(`${doc.path}: listed in the manifest but not in the zip`);
        continue;
      }
      const actual = await fingerprint(zip, entry);
      result.documentsChecked += 1;
      if (actual.size !== doc.size || actual.sha256 !== doc.sha256) {
        problem(`${doc.path}: does not match the manifest's size and sha256`);
      }
    }
    for (const required of [EXAMINER_DOCUMENTS.index, EXAMINER_DOCUMENTS.history]) {
      if (!manifest.documents.some((d) => d.path === required)) {
        problem(`${required}: not listed in the manifest`);
      }
    }
    for (const name of entries.keys()) {
      if (!name.endsWith('/') && !listed.has(name)) problem(`${name}: not listed in the manifest`);
    }

    // index.csv against the manifest's files.
    const indexEntry = entries.get(EXAMINER_DOCUMENTS.index);
    if (indexEntry) {
      let rowNumber = -1;
      let columns: string[] = [];
      for await (const record of csvRecords(zip, indexEntry)) {
        rowNumber += 1;
        if (rowNumber === 0) {
          columns = record;
          if (INDEX_CSV_COLUMNS.some((c, i) => columns[i] !== c)) {
            problem(`${EXAMINER_DOCUMENTS.index}: unexpected columns`);
            break;
          }
          continue;
        }
        const item = manifest.files[rowNumber - 1];
        const cell = (name: string) => record[columns.indexOf(name)];
        if (
          !item ||
          cell('file_id') !== item.file_id ||
          cell('sha256') !== item.sha256 ||
          Number(cell('size')) !== item.size
        ) {
          problem(`${EXAMINER_DOCUMENTS.index}: row ${rowNumber} does not match the manifest`);
        }
      }
      if (rowNumber >= 0 && rowNumber !== manifest.files.length) {
        problem(
          `${EXAMINER_DOCUMENTS.index}: ${Math.max(rowNumber, 0)} rows, the manifest lists ${manifest.files.length} files`,
        );
      }
    }

    // The export's own event.
    const exportEvent = manifest.export_event;
    result.exportEvent = { seq: Number(exportEvent.chain_seq), hash: exportEvent.hash };
    if (chainHash(exportEvent.prev_hash, exportEvent) !== exportEvent.hash) {
      problem(`export event #${exportEvent.chain_seq}: its content does not match its hash`);
    }

    // history.csv against the chain links of the manifest.
    const links = manifest.history.events;
    const databaseId = manifest.history.database_id;
    const historyEntry = entries.get(EXAMINER_DOCUMENTS.history);
    let previous: { chain_seq: number; hash: string } | null = null;
    if (historyEntry) {
      let rowNumber = -1;
      for await (const record of csvRecords(zip, historyEntry)) {
        rowNumber += 1;
        if (rowNumber === 0) {
          if (HISTORY_CSV_COLUMNS.some((c, i) => record[i] !== c)) {
            problem(`${EXAMINER_DOCUMENTS.history}: unexpected columns`);
            break;
          }
          continue;
        }
        const link = links[rowNumber - 1];
        const row: Record<string, string> = {};
        HISTORY_CSV_COLUMNS.forEach((c, i) => (row[c] = record[i] ?? ''));
        if (!link) {
          problem(
            `${EXAMINER_DOCUMENTS.history}: row ${rowNumber} has no chain link in the manifest`,
          );
          continue;
        }
        result.eventsChecked += 1;
        const seq = Number(link.chain_seq);
        if (row.id !== link.id || Number(row.chain_seq) !== seq || row.hash !== link.hash) {
          problem(`history event #${seq}: the row is not the event the manifest lists`);
        } else if (!rowMatchesLink(row, databaseId, { ...link, chain_seq: seq })) {
          problem(`history event #${seq} (${link.id}): its content does not match its hash`);
        }
        if (previous && seq <= previous.chain_seq) {
          problem(`history event #${seq}: out of chain order`);
        } else if (previous && seq === previous.chain_seq + 1) {
          result.linksChecked += 1;
          if (link.prev_hash !== previous.hash) {
            problem(
              `history event #${seq}: its previous hash is not the hash of #${previous.chain_seq}`,
            );
          }
        } else if (previous) {
          result.gaps += 1;
        }
        if (seq >= Number(exportEvent.chain_seq)) {
          problem(`history event #${seq}: not before the export's own event`);
        }
        previous = { chain_seq: seq, hash: link.hash };
      }
      const rows = Math.max(rowNumber, 0);
      if (rows !== links.length || rows !== manifest.history.count) {
        problem(
          `${EXAMINER_DOCUMENTS.history}: ${rows} events, the manifest lists ${links.length} (count ${manifest.history.count})`,
        );
      }
    }
    // The last exported event right before the export's own event must link to it.
    if (previous && previous.chain_seq === Number(exportEvent.chain_seq) - 1) {
      result.linksChecked += 1;
      if (exportEvent.prev_hash !== previous.hash) {
        problem(
          `export event #${exportEvent.chain_seq}: its previous hash is not the hash of #${previous.chain_seq}`,
        );
      }
    }
    if (manifest.history.complete) {
      const first = links[0];
      const startsAtGenesis =
        links.length === 0
          ? Number(exportEvent.chain_seq) === 1 && exportEvent.prev_hash === GENESIS_HASH
          : Number(first!.chain_seq) === 1 && first!.prev_hash === GENESIS_HASH;
      const reachesExport =
        links.length === Number(exportEvent.chain_seq) - 1 &&
        (links.length === 0 || exportEvent.prev_hash === links[links.length - 1]!.hash);
      result.completeChain = startsAtGenesis && reachesExport && result.gaps === 0;
      if (!result.completeChain) {
        problem('history: the manifest says it is the whole chain up to the export, but it is not');
      }
    }
    result.ok = result.problemCount === 0;
    return result;
  } finally {
    zip.close();
  }
}

/** The scope in words, for the report. */
function scopeWords(scope: ExaminerScopeDescription): string {
  switch (scope.kind) {
    case 'folder':
      return `folder "${scope.path}"`;
    case 'contact':
      return `contact "${scope.name}" (${scope.folders.map((f) => `"${f.path}"`).join(', ')})`;
    case 'date_range':
      return `files and events from ${scope.start} to ${scope.end} (end excluded)`;
    default:
      return 'the whole firm';
  }
}

/** The verification as lines for the terminal, the verdict last (OK, or FAIL with the count). */
export function verificationReport(file: string, v: ExportVerification): string[] {
  const lines = [`Examiner export ${file}`];
  if (v.summary) {
    lines.push(
      `  firm ${v.summary.firm}; scope: ${scopeWords(v.summary.scope)}`,
      `  exported ${v.summary.exported_at} by ${v.summary.exported_by}`,
      `  files: ${v.filesChecked} checked (${v.bytesChecked} bytes), sha256 and size against the manifest`,
      `  documents: ${v.documentsChecked} checked (index.csv, history.csv)`,
      `  history: ${v.eventsChecked} events hashed against their chain links; ${v.linksChecked} links between consecutive events checked; ${v.gaps} gaps (events outside the scope)${v.completeChain ? '; the whole chain from its first link to the export' : ''}`,
    );
    if (v.exportEvent) {
      lines.push(
        `  recorded in History as event #${v.exportEvent.seq}, hash ${v.exportEvent.hash}`,
      );
    }
  }
  for (const text of v.problems) lines.push(`  FAIL ${text}`);
  if (v.problemCount > v.problems.length) {
    lines.push(`  … and ${v.problemCount - v.problems.length} more`);
  }
  lines.push(
    v.ok
      ? 'OK: every file and every history event matches the manifest.'
      : `FAIL: ${v.problemCount} ${v.problemCount === 1 ? 'problem' : 'problems'} found.`,
  );
  return lines;
}
