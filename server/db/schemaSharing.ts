/** The tables of sharing (issue 7). */

/** Tables of sharing, merged into DB (schema.ts). */
export type SharingTables = Record<never, never>;
