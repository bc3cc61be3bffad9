/**
 * The tables of full-text search (migration 0013). `search_documents` is written only by
 * the database triggers of 0013 (never by the services); the repositories read it. The SQLite FTS5
 * table `search_fts` and the PostgreSQL `tsv` column are reached with raw SQL (server/repositories/
 * search.ts) and are not typed here; neither is SQLite's integer `rid` (the FTS content rowid).
 */

/** One searchable item: a folder or a ready file. */
export interface SearchDocumentsTable {
  /** The folder's or file's id. */
  id: string;
  database_id: string;
  entity_type: 'file' | 'folder';
  /** The folder whose visibility decides the row's: the folder itself, or the file's folder. */
  scope_id: string;
  /** The folder holding the item ('' for the root). */
  parent_id: string;
  name: string;
  /** Lowercased name (as folders/files.name_key). */
  name_key: string;
  /** name_key without ".extension" (files); name_key for folders. */
  stem_key: string;
  /** Lowercased extension; '' for folders. */
  extension: string;
  /** The item's live applied index values, space separated. */
  index_text: string;
  /** Names of the contacts linked to the folder, space separated ('' for files). */
  contact_text: string;
  /** 1 when archived. */
  archived: number;
  created_at: string;
}

/**
 * One firm's folder tree version (migration 0017): raised by triggers with every change to its
 * folders' names and places, its folder permissions and its teams and their members.
 */
export interface FolderTreeVersionsTable {
  database_id: string;
  version: number;
}

/** Tables of full-text search, merged into DB (schema.ts). */
export interface SearchTables {
  search_documents: SearchDocumentsTable;
  folder_tree_versions: FolderTreeVersionsTable;
}
