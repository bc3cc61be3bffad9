// Fixtures of the search client tests.
import type { AutocompleteHitDto, SearchHitDto } from '@common/search';
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

/** A file as the autocomplete answers it (the search box's light item), in Root / Clients. */
export function fileSuggestion(id: string, name: string): AutocompleteHitDto {
  const dot = name.lastIndexOf('.');
  return {
    id,
    type: 'file',
    name,
    extension: dot > 0 ? name.slice(dot + 1).toLowerCase() : '',
    parent_id: 'f1',
    path: [
      { id: '', name: 'Root' },
      { id: 'f1', name: 'Clients' },
    ],
    matched_in: ['name'],
  };
}

/** A folder as the autocomplete answers it, in Root. */
export function folderSuggestion(id: string, name: string): AutocompleteHitDto {
  return {
    id,
    type: 'folder',
    name,
    extension: '',
    parent_id: '',
    path: [{ id: '', name: 'Root' }],
    matched_in: ['name'],
  };
}
