/** The tables of index fields and applied indexes (issue 9). */

/** Tables of index fields and applied indexes, merged into DB (schema.ts). */
export type IndexTables = Record<never, never>;
