/** The tables of full-text search (issue 9). */

/** Tables of full-text search, merged into DB (schema.ts). */
export type SearchTables = Record<never, never>;
