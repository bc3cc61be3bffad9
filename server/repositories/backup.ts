/** What a backup checks in the copy of the database it made (server/backup.ts). */
import type { Executor } from './types';

/**
 * The storage keys of every recorded file, one at a time (a firm may have millions).
 * @returns the keys in no particular order
 */
export async function* readyStorageKeys(db: Executor): AsyncGenerator<string> {
  const rows = db
    .selectFrom('files')
    .select('storage_key')
    .where('status', '=', 'ready')
    .stream(1000);
  for await (const row of rows) yield row.storage_key;
}

/**
 * The storage keys of the file versions that are not their file's newest (the newest is the
 * file's own key, see {@link readyStorageKeys}), one at a time.
 * @returns the keys in no particular order
 */
export async function* olderVersionKeys(db: Executor): AsyncGenerator<string> {
  const rows = db
    .selectFrom('file_versions')
    .select('file_versions.storage_key')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('files')
            .select('files.id')
            .whereRef('files.storage_key', '=', 'file_versions.storage_key'),
        ),
      ),
    )
    .stream(1000);
  for await (const row of rows) yield row.storage_key;
}
