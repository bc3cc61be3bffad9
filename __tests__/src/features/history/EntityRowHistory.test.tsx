import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityRowView } from '@src/features/entities/components/EntityRowView';
import type { EntityDto } from '@common/entities';
import { toEntityRow } from '@src/features/entities/entitiesSelectors';
import type { AppStore } from '@src/store/store';
import {
  makeFile,
  makeFolder,
  makeRecordingStore,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../../testUtils';

describe('the History action of a folder row', () => {
  let store: AppStore;
  afterEach(() => store.sagaTask.cancel());

  it.each<[string, EntityDto, 'folder' | 'file']>([
    ['folder', makeFolder({ id: 'f1', name: 'Clients' }), 'folder'],
    ['file', makeFile({ id: 'p1', name: 'Statement.pdf' }), 'file'],
  ])('opens the side panel from a %s row', async (_kind, item, type) => {
    stubFetch(() => new Promise(() => undefined));
    const recording = makeRecordingStore(signedInState());
    store = recording.store;
    renderWithProviders(<EntityRowView row={toEntityRow(item)} index={0} />, { store });
    await userEvent.setup().click(screen.getByRole('button', { name: `History of ${item.name}` }));
    await waitFor(() =>
      expect(store.getState().history.item.target).toEqual({ type, id: item.id, name: item.name }),
    );
    expect(recording.types()).toContain('history/itemPanelOpened');
  });
});
