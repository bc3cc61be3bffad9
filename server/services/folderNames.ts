/**
 * The unique-name rule applied inside a transaction (SPEC section 4 "Unique names"; the name rule
 * itself is common/names.ts). Used by every service that places an item in a folder.
 */
import { MAX_NAME_LENGTH } from '@common/constants';
import { nameKey, uniqueName } from '@common/names';
import { childrenOf, liveNamesWithKeys, liveNamesWithPrefix } from '../repositories/organise';
import type { Executor } from '../repositories/types';

/** Prefix reads one FolderNames may make before it reads the whole folder once instead. */
const PREFIX_LOADS_BEFORE_FULL = 20;

/** Longest " (n)" tag whose names a prefix read covers (" (999999999)"). */
const LONGEST_TAG = 12;

/**
 * The taken names of one folder as the unique-name rule needs them, read lazily so that a folder
 * of 100,000 items costs a few index lookups, not a read of every name: `want` reads the exact
 * names wanted (by name_key, chunked); when a wanted name is taken, `claim` reads the names that
 * start like it (the only ones a "(n)" counter can collide with) before picking the first free
 * counter, and after PREFIX_LOADS_BEFORE_FULL such reads it reads the whole folder once. `extra`
 * names (keys) count as taken too; rows with an id in `ignore` do not (the item being renamed).
 */
export class FolderNames {
  private readonly taken = new Set<string>();
  private readonly prefixesRead = new Set<string>();
  private prefixLoads = 0;
  private full = false;

  constructor(
    private readonly db: Executor,
    private readonly databaseId: string,
    private readonly folderId: string,
    private readonly ignore: ReadonlySet<string> = new Set(),
  ) {}

  private add(rows: readonly { id: string; name: string }[]): void {
    for (const row of rows) if (!this.ignore.has(row.id)) this.taken.add(nameKey(row.name));
  }

  /** Marks names taken that are not (yet) rows of the folder, e.g. rows a restore brings back. */
  addTaken(names: Iterable<string>): void {
    for (const name of names) this.taken.add(nameKey(name));
  }

  /** Reads which of these names are taken (call before claiming them). */
  async want(names: readonly string[]): Promise<void> {
    if (this.full) return;
    const keys = [...new Set(names.map(nameKey))];
    this.add(await liveNamesWithKeys(this.db, this.databaseId, this.folderId, keys));
  }

  /** Reads every live name of the folder once. */
  private async readAll(): Promise<void> {
    this.add(
      await childrenOf(this.db, this.databaseId, [this.folderId], { includeArchived: false }),
    );
    this.full = true;
  }

  /**
   * Takes `name` when free (it must have been passed to {@link want}), else the first free
   * "(n)" variant (common/names.ts uniqueName), and marks the result taken.
   */
  async claim(name: string, isFile: boolean): Promise<string> {
    if (this.taken.has(nameKey(name)) && !this.full) {
      const dot = isFile ? name.lastIndexOf('.') : -1;
      const suffixLength = dot > 0 ? name.length - dot : 0;
      const base = dot > 0 ? name.slice(0, dot) : name;
      const room = MAX_NAME_LENGTH - LONGEST_TAG - suffixLength;
      const prefix = nameKey(base.slice(0, Math.max(0, room)));
      if (room <= 0 || this.prefixLoads >= PREFIX_LOADS_BEFORE_FULL) await this.readAll();
      else if (!this.prefixesRead.has(prefix)) {
        this.prefixesRead.add(prefix);
        this.prefixLoads += 1;
        this.add(await liveNamesWithPrefix(this.db, this.databaseId, this.folderId, prefix));
      }
    }
    const finalName = this.taken.has(nameKey(name))
      ? uniqueName(name, this.taken, { isFile })
      : name;
    this.taken.add(nameKey(finalName));
    return finalName;
  }
}
