import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import type { FileKind } from '@common/files';
import { EntityIcon } from '@src/components/EntityIcon';

const KINDS: FileKind[] = [
  'folder',
  'image',
  'movie',
  'text',
  'pdf',
  'spreadsheet',
  'audio',
  'presentation',
  'other',
];

describe('EntityIcon', () => {
  it.each(KINDS)('renders the %s kind with data-kind and an accessible name', (kind) => {
    render(<EntityIcon kind={kind} />);
    const icon = screen.getByRole('img', { name: kind });
    expect(icon).toHaveAttribute('data-kind', kind);
    expect(icon.querySelector('svg')).not.toBeNull();
  });

  it('uses a different glyph per kind', () => {
    const { container } = render(
      <>
        {KINDS.map((kind) => (
          <EntityIcon key={kind} kind={kind} />
        ))}
      </>,
    );
    const glyphs = Array.from(container.querySelectorAll('svg')).map((svg) =>
      svg.getAttribute('data-icon'),
    );
    expect(new Set(glyphs).size).toBe(KINDS.length);
  });
});
