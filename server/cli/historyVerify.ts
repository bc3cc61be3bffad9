/**
 * `npm run history:verify`: walks every firm's history hash chain in the configured database
 * (or one firm: `npm run history:verify -- <database id>`) and prints, per firm, the events
 * checked and the head link (keep its hash elsewhere: a removed tail is only visible against a
 * copy), or the first broken link. Exits 1 when a chain is broken, 2 on an error.
 *
 * `npm run history:verify -- --export FILE.zip` checks an examiner's export instead, without any
 * database (services/examinerVerify.ts): every file's size and sha256 against the manifest, the
 * documents, and the history rows against their chain links. Prints a report ending in OK or
 * FAIL; exits 1 on FAIL, 2 when the file cannot be read as a zip.
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { verificationReport, verifyExaminerExport } from '../services/examinerVerify';
import { verifyAllFirms, verifyHistoryChain } from '../services/history';

/** Checks an examiner's export zip; answers the exit code. */
async function verifyExport(file: string | undefined): Promise<number> {
  if (!file) {
    console.error('Usage: npm run history:verify -- --export FILE.zip');
    return 2;
  }
  let verification;
  try {
    verification = await verifyExaminerExport(file);
  } catch (error) {
    console.error(
      `${file}: not a readable zip (${error instanceof Error ? error.message : String(error)})`,
    );
    return 2;
  }
  for (const line of verificationReport(file, verification)) console.log(line);
  return verification.ok ? 0 : 1;
}

async function main(): Promise<number> {
  const exportFlag = process.argv.indexOf('--export');
  if (exportFlag >= 0) return verifyExport(process.argv[exportFlag + 1]);
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    const tables = await database.db.introspection.getTables();
    const history = tables.find((t) => t.name === 'history_events');
    if (!history?.columns.some((c) => c.name === 'hash')) {
      console.error(
        'This database has no history chain yet: run `npm run migrate` (or start the app).',
      );
      return 2;
    }
    const only = process.argv[2];
    const results = only
      ? [await verifyHistoryChain(database.db, only)]
      : await verifyAllFirms(database.db);
    let broken = 0;
    for (const result of results) {
      if (result.ok) {
        const head = result.head
          ? `head #${result.head.seq} ${result.head.id} ${result.head.hash}`
          : 'no events';
        console.log(`${result.database_id}: OK, ${result.checked} events, ${head}`);
      } else {
        broken += 1;
        const link = result.broken!;
        console.log(
          `${result.database_id}: BROKEN at #${link.seq}${link.id ? ` (${link.id})` : ''}: ${link.reason}` +
            ` (${result.checked} events checked)`,
        );
      }
    }
    if (results.length === 0) console.log('No firm databases.');
    return broken > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(2);
  });
