/** `npm run migrate`: brings the configured database to the latest schema and exits. */
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/database';

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
migrateToLatest(database.db)
  .then(async (result) => {
    const applied = (result.results ?? [])
      .filter((r) => r.status === 'Success')
      .map((r) => r.migrationName);
    console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Schema is up to date.');
    await database.close();
  })
  .catch(async (error: unknown) => {
    console.error(error);
    await database.close();
    process.exit(1);
  });
