/** The tables of CRM contacts and folder contacts (issue 9). */

/** Tables of CRM contacts and folder contacts, merged into DB (schema.ts). */
export type ContactTables = Record<never, never>;
