// Fixtures of the index fields client tests.
import type { AppliedIndexDto, IndexFieldDto } from '@common/indexFields';

const AT = '2024-01-01T00:00:00.000Z';

/** An index field (number "Tax year" unless overridden). */
export function makeField(overrides: Partial<IndexFieldDto> = {}): IndexFieldDto {
  return {
    id: 'tax',
    name: 'Tax year',
    type: 'number',
    description: '',
    position: 0,
    values: [],
    archived_at: null,
    deleted_at: null,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}

/** The list field "Document type" with three values. */
export const DOC_TYPE = makeField({
  id: 'doctype',
  name: 'Document type',
  type: 'list',
  position: 1,
  values: [
    { id: 'v1', value: 'Invoice', position: 0 },
    { id: 'v2', value: 'Statement', position: 1 },
    { id: 'v3', value: 'Contract', position: 2 },
  ],
});

/** The number field "Tax year". */
export const TAX_YEAR = makeField();

/** An applied value. */
export function makeApplied(overrides: Partial<AppliedIndexDto> = {}): AppliedIndexDto {
  return {
    id: 'a1',
    entity_type: 'file',
    entity_id: 'file1',
    index_field_id: 'tax',
    index_field_name: 'Tax year',
    index_field_type: 'number',
    value: '2023',
    archived_at: null,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}
