// The header's firm switcher (SPEC section 3 "Database"): it offers exactly the user's databases
// with a description, one per description (of duplicates the current one), and names the current
// database by its name when it has none of its own — a database that is never offered otherwise.
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DatabaseDto } from '@common/session';
import { FirmSwitcher } from '@src/features/session/components/FirmSwitcher';
import type { AppStore } from '@src/store/store';
import { makeRecordingStore, makeUser, renderWithProviders, signedInState } from '../../testUtils';

const DATABASES: DatabaseDto[] = [
  { id: 'a', name: 'Alpha', description: 'Shared office', role: 'member' },
  { id: 'b', name: 'Bravo', description: 'Shared office', role: 'member' },
  { id: 'c', name: 'Charlie', description: null, role: 'member' },
  { id: 'd', name: 'Delta', description: '   ', role: 'member' },
  { id: 'e', name: 'Echo', description: 'East office', role: 'admin' },
];

let store: AppStore | undefined;
afterEach(() => {
  store?.sagaTask.cancel();
  store = undefined;
});

async function optionsFor(currentDatabaseId: string): Promise<string[]> {
  store = makeRecordingStore(
    signedInState(makeUser({ databases: DATABASES, currentDatabaseId })),
  ).store;
  renderWithProviders(<FirmSwitcher />, { store });
  await userEvent.setup().click(screen.getByRole('combobox', { name: 'Firm' }));
  return (await screen.findAllByRole('option')).map((option) => option.textContent ?? '');
}

describe('FirmSwitcher', () => {
  it('offers one database per description, the first by name of duplicates', async () => {
    expect(await optionsFor('e')).toEqual(['Shared office', 'East office']);
    expect(screen.queryByText('Charlie')).not.toBeInTheDocument();
    expect(screen.queryByText('Delta')).not.toBeInTheDocument();
  });

  it('keeps the current database among duplicates', async () => {
    expect(await optionsFor('b')).toEqual(['Shared office', 'East office']);
    expect(screen.getByRole('option', { name: 'Shared office' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('names the current database without a description, offering the described ones', async () => {
    expect(await optionsFor('c')).toEqual(['Charlie', 'Shared office', 'East office']);
  });
});
