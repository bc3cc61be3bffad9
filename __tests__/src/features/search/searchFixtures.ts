// Fixtures of the search client tests.
import type { SearchHitDto } from '../../../../common/search';
import { makeFile, makeFolder } from '../../fixtures';

/** A file hit in Root / Clients. */
export function fileHit(
  id: string,
  name: string,
  overrides: Partial<SearchHitDto> = {},
): SearchHitDto {
  return {
    ...makeFile({ id, name, folder_id: 'f1' }),
    path: [
      { id: '', name: 'Root' },
      { id: 'f1', name: 'Clients' },
    ],
    matched_in: ['name'],
    ...overrides,
  } as SearchHitDto;
}

/** A folder hit in Root. */
export function folderHit(id: string, name: string): SearchHitDto {
  return { ...makeFolder({ id, name }), path: [{ id: '', name: 'Root' }], matched_in: ['name'] };
}
