/** The tables of index fields and applied indexes (migration 0011_index_fields.ts). */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { IndexFieldType } from '@common/indexFields';

/** A firm's index field. `deleted_at` set: deleted, undoable until destroyed (row removed). */
export interface IndexFieldsTable {
  id: string;
  database_id: string;
  name: string;
  /** Trimmed, lowercased name; unique per firm among fields not deleted. */
  name_key: string;
  type: Generated<IndexFieldType>;
  description: Generated<string>;
  /** Order among the firm's fields, 0 first. */
  position: Generated<number>;
  archived_at: string | null;
  deleted_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One value of a list field, by position (0 first). */
export interface IndexFieldValuesTable {
  id: string;
  index_field_id: string;
  value: string;
  position: number;
}

/** One value of one field on one file or folder; one live (not archived) row per pair. */
export interface AppliedIndexesTable {
  id: string;
  database_id: string;
  entity_type: 'file' | 'folder';
  entity_id: string;
  index_field_id: string;
  /** Dates YYYY-MM-DD, numbers canonical decimal text. */
  value: string;
  archived_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Tables of index fields and applied indexes, merged into DB (schema.ts). */
export interface IndexTables {
  index_fields: IndexFieldsTable;
  index_field_values: IndexFieldValuesTable;
  applied_indexes: AppliedIndexesTable;
}

export type IndexFieldRow = Selectable<IndexFieldsTable>;
export type NewIndexField = Insertable<IndexFieldsTable>;
export type IndexFieldUpdate = Updateable<IndexFieldsTable>;
export type IndexFieldValueRow = Selectable<IndexFieldValuesTable>;
export type AppliedIndexRow = Selectable<AppliedIndexesTable>;
export type NewAppliedIndex = Insertable<AppliedIndexesTable>;
