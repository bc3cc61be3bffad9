/** Replay's table (migration 0030): snapshots of the replayed state of a firm's items. */

/** `replay_snapshots`: the state after chain position `chain_seq`, derived data (may be dropped). */
export interface ReplaySnapshotsTable {
  database_id: string;
  /** The last event applied (history_events.chain_seq). */
  chain_seq: number;
  /** Format of `state` (REPLAY_SNAPSHOT_FORMAT when written); other formats are ignored. */
  format: number;
  /** How many items the state holds (tombstones included). */
  item_count: number;
  /** The ReplayState (common/replay.ts) as JSON, gzipped, base64. */
  state: string;
  created_at: string;
}

/** The tables of this module, merged into DB (schema.ts). */
export interface ReplayTables {
  replay_snapshots: ReplaySnapshotsTable;
}
