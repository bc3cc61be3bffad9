/** What every repository function takes: the Kysely instance or an open transaction. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** A Kysely instance or transaction (Transaction extends Kysely). */
export type Executor = Kysely<DB>;
