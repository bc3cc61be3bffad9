/**
 * The tamper-evident part of the history log, as pure functions: the canonical
 * content of an event, the hash chain (each firm's events link to the previous one by sha256),
 * a walker that finds the first broken link, and the time-ordered ids the log is paged by.
 *
 * Chain format v1 (never change it; add a v2 beside it):
 *   hash = sha256_hex(prev_hash + canonical)
 *   canonical = JSON.stringify(['dossier-history-v1', id, database_id, chain_seq, entity_type,
 *     entity_id, item_id, action, user_id, user_name, attributes, ip, user_agent, created_at])
 * where `attributes` is the JSON text exactly as stored (written by {@link canonicalJson}, keys
 * sorted) and the first link's prev_hash is {@link GENESIS_HASH}.
 *
 * The migration 0002 imports this module to hash the events written before it.
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

/** prev_hash of a firm's first event: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** The columns of an event that its hash covers. */
export interface ChainContent {
  id: string;
  database_id: string;
  chain_seq: number;
  entity_type: string;
  entity_id: string;
  item_id: string | null;
  action: string;
  user_id: string;
  user_name: string;
  /** JSON text as stored. */
  attributes: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** A stored link: its content plus the two hashes. */
export interface ChainLink extends ChainContent {
  prev_hash: string;
  hash: string;
}

/**
 * JSON text with object keys sorted at every level, so equal values always give equal text (and
 * equal hashes). Arrays keep their order; undefined properties are left out, as JSON.stringify does.
 * @param value any JSON-compatible value
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) {
      if (source[key] !== undefined) sorted[key] = sortKeys(source[key]);
    }
    return sorted;
  }
  return value;
}

/** The canonical text of an event's content (format v1, see the module comment). */
export function chainContent(row: ChainContent): string {
  return JSON.stringify([
    'dossier-history-v1',
    row.id,
    row.database_id,
    Number(row.chain_seq),
    row.entity_type,
    row.entity_id,
    row.item_id ?? null,
    row.action,
    row.user_id,
    row.user_name,
    row.attributes,
    row.ip ?? null,
    row.user_agent ?? null,
    row.created_at,
  ]);
}

/**
 * The hash of a link: sha256 over the previous link's hash and this event's canonical content.
 * @returns 64 lowercase hex characters
 */
export function chainHash(prevHash: string, row: ChainContent): string {
  return createHash('sha256').update(prevHash).update(chainContent(row)).digest('hex');
}

/** Why a link is broken (the verifier's report). */
export type BrokenReason =
  | 'sequence gap'
  | 'previous hash does not match'
  | 'content does not match its hash'
  | 'export record does not match its content';

/**
 * Walks one firm's chain in chain_seq order and remembers the first broken link: a missing
 * position (a deleted row), a prev_hash that is not the previous link's hash (a row removed or
 * re-linked), or a hash that does not match the content (a row changed). Feed it every link from
 * seq 1 up; it stops checking after the first break.
 */
export class ChainWalker<L extends ChainLink = ChainLink> {
  /** Links checked so far (up to and including a broken one). */
  checked = 0;
  /** The first broken link, or null. */
  broken: { seq: number; id: string | null; reason: BrokenReason } | null = null;
  /** The last link seen. */
  head: { seq: number; id: string; hash: string } | null = null;
  private expectedSeq = 1;
  private expectedPrev = GENESIS_HASH;

  /**
   * @param check a further check of each sound link (its hash matches), answering why it is
   *   broken all the same, or null; the chain's own checks come first
   */
  constructor(private readonly check?: (link: L) => BrokenReason | null) {}

  /**
   * Checks the next link.
   * @returns false once the chain is broken (later links need not be fed)
   */
  add(link: L): boolean {
    if (this.broken) return false;
    this.checked += 1;
    const seq = Number(link.chain_seq);
    if (seq !== this.expectedSeq) {
      this.broken = { seq: this.expectedSeq, id: null, reason: 'sequence gap' };
      return false;
    }
    if (link.prev_hash !== this.expectedPrev) {
      this.broken = { seq, id: link.id, reason: 'previous hash does not match' };
      return false;
    }
    if (chainHash(link.prev_hash, link) !== link.hash) {
      this.broken = { seq, id: link.id, reason: 'content does not match its hash' };
      return false;
    }
    const other = this.check?.(link) ?? null;
    if (other) {
      this.broken = { seq, id: link.id, reason: other };
      return false;
    }
    this.head = { seq, id: link.id, hash: link.hash };
    this.expectedSeq = seq + 1;
    this.expectedPrev = link.hash;
    return true;
  }
}

/** Milliseconds encoded in a UUIDv7 (its first 48 bits). */
export function idMillis(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * The smallest UUIDv7 text of a moment: every history id made at or after `ms` sorts at or after
 * it, every id made before sorts before. Turns a time range into an id range, which the
 * (database_id, id) indexes serve (history ids carry the event's own time, see {@link historyIdAt}).
 * @param ms epoch milliseconds, 0..2^48-1 (clamped)
 */
export function idLowerBound(ms: number): string {
  const clamped = Math.min(Math.max(Math.floor(ms), 0), 2 ** 48 - 1);
  const hex = clamped.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** Per-process state of {@link historyIdAt}: the last millisecond and its counter. */
const idState = { ms: -1, seq: 0 };

/**
 * Random bytes for the ids' tails, drawn from the CSPRNG 4 KiB at a time: one `randomBytes` call
 * per id cost several microseconds, which a bulk action of 10,000 events felt.
 */
const randomPool = { bytes: Buffer.alloc(4096), used: 4096 };

/** The next `n` (≤ 4096) bytes of the random pool, refilled when spent. */
function pooledRandom(n: number): Buffer {
  if (randomPool.used + n > randomPool.bytes.length) {
    randomFillSync(randomPool.bytes);
    randomPool.used = 0;
  }
  const slice = randomPool.bytes.subarray(randomPool.used, randomPool.used + n);
  randomPool.used += n;
  return slice;
}

/**
 * A UUIDv7 (RFC 9562) whose time is `ms`, the event's own time (not the wall clock, so tests with
 * a fixed clock and the date filters agree). Ids made in the same millisecond by this process
 * increase (a 31-bit counter started at a random value, method 1 of RFC 9562 section 6.2); pass
 * `after` (the firm's newest id) to stay above ids made by other processes in that millisecond.
 * @param ms epoch milliseconds of the event
 * @param after an id the new one must sort after when both share a millisecond
 */
export function historyIdAt(ms: number, after?: string | null): string {
  const millis = Math.floor(ms);
  if (millis !== idState.ms) {
    idState.ms = millis;
    idState.seq = randomBytes(4).readUInt32BE(0) >>> 2; // leaves room to count up
  } else {
    idState.seq += 1;
  }
  if (after && idMillis(after) === millis) {
    const afterSeq = seqOf(after);
    if (afterSeq >= idState.seq) idState.seq = afterSeq + 1;
  }
  return formatV7(millis, idState.seq >>> 0, pooledRandom(6));
}

/** The 31-bit counter of an id made by {@link historyIdAt}. */
function seqOf(id: string): number {
  const hex = id.replace(/-/g, '');
  const bytes = Buffer.from(hex, 'hex');
  return (
    (((bytes[6]! & 0x0f) << 27) |
      (bytes[7]! << 19) |
      ((bytes[8]! & 0x3f) << 13) |
      (bytes[9]! << 5) |
      (bytes[10]! >> 3)) >>>
    0
  );
}

/** Lays out a UUIDv7: 48-bit ms, version, 31-bit counter around the variant bits, random tail. */
function formatV7(ms: number, seq: number, random: Buffer): string {
  const b = Buffer.alloc(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | ((seq >>> 27) & 0x0f);
  b[7] = (seq >>> 19) & 0xff;
  b[8] = 0x80 | ((seq >>> 13) & 0x3f);
  b[9] = (seq >>> 5) & 0xff;
  b[10] = ((seq & 0x1f) << 3) | (random[0]! & 0x07);
  random.copy(b, 11, 1, 6);
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
