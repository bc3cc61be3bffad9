import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityList } from '@src/features/entities/components/EntityList';
import { NO_PREVIEW_TEXT } from '@src/features/entities/components/FileNameLink';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import type { EntityDto } from '@common/entities';
import { makeStore, type AppStore } from '@src/store/store';
import {
  AddressProbe,
  makeFile,
  makeFolder,
  makePage,
  renderWithProviders,
  signedInState,
  stubFetch,
} from '../../testUtils';

function storeWith(items: EntityDto[], total = items.length): AppStore {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  const entities = entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage(items, 1, total) }),
  );
  return makeStore({ ...signedInState(), entities });
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const items: EntityDto[] = [
  makeFolder({ id: 'f1', name: 'Clients' }),
  makeFile({ id: 'p1', name: 'Statement.pdf', extension: 'pdf', size: 1536 }),
  makeFile({
    id: 'x1',
    name: 'Budget.xlsx',
    extension: 'xlsx',
    size: 2_621_440,
    content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  }),
  makeFile({ id: 'm1', name: 'Call.mp3', extension: 'mp3', size: 0, content_type: 'audio/mpeg' }),
];

/** A Word document: shown in the viewer through its PDF rendition. */
const docx = makeFile({ id: 'd1', name: 'Minutes.docx', extension: 'docx', content_type: DOCX });
/** A zip archive: nothing shows it, so it has no preview. */
const zip = makeFile({
  id: 'z1',
  name: 'Bundle.zip',
  extension: 'zip',
  content_type: 'application/zip',
});

describe('EntityList', () => {
  let store: AppStore;
  beforeEach(() => {
    // Calls stay pending: these tests look at the requests the list makes, not their results.
    stubFetch(() => new Promise(() => undefined));
  });
  afterEach(() => store.sagaTask.cancel());

  it('renders a row per item with icon kind, name, size and date, folders first', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    const rows = screen.getAllByTestId('entity-row');
    expect(rows.map((row) => row.getAttribute('data-entity-id'))).toEqual(['f1', 'p1', 'x1', 'm1']);
    expect(rows.every((row) => row.getAttribute('role') === 'row')).toBe(true);
    const cells = rows.map((row) => {
      const icon = within(row).getByRole('img');
      return [icon.getAttribute('data-kind'), icon.getAttribute('aria-label'), row.textContent];
    });
    expect(cells[0]![0]).toBe('folder');
    expect(cells[0]![1]).toBe('folder');
    expect(cells.map(([kind]) => kind)).toEqual(['folder', 'pdf', 'spreadsheet', 'audio']);
    expect(within(rows[0]!).getByText('—')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('0 KB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^Mar [67], 2024/)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Contents of Home' })).toHaveAttribute(
      'aria-rowcount',
      '5',
    );
  });

  it('links folders to their route and files to the viewer over the page', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store, route: '/home?sort=name' });
    expect(screen.getByRole('link', { name: 'Clients' })).toHaveAttribute(
      'href',
      '/home/folders/f1',
    );
    const name = screen.getByRole('link', { name: 'Statement.pdf' });
    expect(name).toHaveAttribute('href', '/home?sort=name&view=file%3Ap1');
    expect(name).not.toHaveAttribute('target');
    expect(screen.getByRole('link', { name: 'Download Statement.pdf' })).toHaveAttribute(
      'href',
      '/api/rest/files/p1/download',
    );
    expect(screen.getByRole('button', { name: 'Preview Statement.pdf' })).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Download Clients' })).not.toBeInTheDocument();
  });

  it('opens a folder row with Enter, and a file row in the viewer', async () => {
    store = storeWith(items);
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    renderWithProviders(
      <>
        <EntityList />
        <AddressProbe />
      </>,
      { store, route: '/home' },
    );
    const [folderRow, fileRow] = screen.getAllByTestId('entity-row');
    fireEvent.keyDown(fileRow!, { key: 'Enter' });
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/home?view=file%3Ap1');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Preview Call.mp3' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/home?view=file%3Am1');
    folderRow!.focus();
    await userEvent.setup().keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/home/folders/f1');
    open.mockRestore();
  });

  it('offers a preview for what the viewer shows (renditions too), and a download otherwise', async () => {
    store = storeWith([...items, docx, zip]);
    const user = userEvent.setup();
    renderWithProviders(<EntityList />, { store, route: '/home' });

    const pdfName = screen.getByRole('link', { name: 'Statement.pdf' });
    expect(pdfName).toHaveAttribute('href', '/home?view=file%3Ap1');
    expect(pdfName).not.toHaveAttribute('download');
    // Office documents open in the viewer (their PDF rendition).
    expect(screen.getByRole('link', { name: 'Minutes.docx' })).toHaveAttribute(
      'href',
      '/home?view=file%3Ad1',
    );
    expect(screen.getByRole('button', { name: 'Preview Minutes.docx' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Preview Budget.xlsx' })).toBeEnabled();

    const zipName = screen.getByRole('link', { name: 'Bundle.zip' });
    expect(zipName).toHaveAttribute('href', '/api/rest/files/z1/download');
    expect(zipName).toHaveAttribute('download', 'Bundle.zip');
    expect(zipName).not.toHaveAttribute('target');
    expect(zipName).toHaveClass('entity-name');
    expect(zipName).toHaveAttribute('tabindex', '-1');
    expect(zipName).toHaveAttribute('draggable', 'false');
    // The eye button stays in place, disabled, and says why.
    const zipPreview = screen.getByRole('button', { name: 'Preview Bundle.zip' });
    expect(zipPreview).toBeDisabled();
    await user.hover(zipPreview.parentElement!);
    expect(await screen.findByText(NO_PREVIEW_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call.mp3' })).toHaveAttribute(
      'href',
      '/home?view=file%3Am1',
    );
  });

  it('downloads a file without preview with Enter instead of opening anything', () => {
    store = storeWith([...items, zip]);
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    const clicked: { href: string | null; download: string | null; inPage: boolean }[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({
        href: this.getAttribute('href'),
        download: this.getAttribute('download'),
        inPage: this.isConnected,
      });
    });
    try {
      renderWithProviders(<EntityList />, { store });
      const anchorsBefore = document.querySelectorAll('a').length;
      const zipRow = screen
        .getAllByTestId('entity-row')
        .find((row) => row.getAttribute('data-entity-id') === 'z1');
      fireEvent.keyDown(zipRow!, { key: 'Enter' });
      expect(open).not.toHaveBeenCalled();
      expect(clicked).toEqual([
        { href: '/api/rest/files/z1/download', download: 'Bundle.zip', inPage: true },
      ]);
      // The temporary link is gone again.
      expect(document.querySelectorAll('a')).toHaveLength(anchorsBefore);
    } finally {
      click.mockRestore();
      open.mockRestore();
    }
  });

  it('asks for the next page when the end is reached, and shows it loading', async () => {
    store = storeWith(items, 10);
    const { fetchStub } = stubFetch(() => new Promise(() => undefined));
    renderWithProviders(<EntityList />, { store });
    expect(store.getState().entities.more.status).toBe('loading');
    expect(await screen.findByText('Loading more…')).toBeInTheDocument();
    expect(fetchStub.mock.calls[0]![0]).toBe('/api/rest/entities?folder_id=&page=2&page_size=100');
  });

  it('does not ask for more when everything is loaded', () => {
    store = storeWith(items);
    renderWithProviders(<EntityList />, { store });
    expect(store.getState().entities.more.status).toBe('idle');
  });

  it('shows the empty state', () => {
    store = storeWith([]);
    renderWithProviders(<EntityList />, { store });
    expect(
      screen.getByText('This folder is empty. Drop files here or use Upload files.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows a loading state, and an error with Try again', async () => {
    const opened = entitiesReducer(
      initialEntitiesState,
      entitiesActions.folderOpened({ folderId: '' }),
    );
    store = makeStore({ ...signedInState(), entities: opened });
    const { unmount } = renderWithProviders(<EntityList />, { store });
    expect(screen.getByRole('status')).toHaveTextContent('Loading folder…');
    unmount();
    store.sagaTask.cancel();

    const failed = entitiesReducer(
      opened,
      entitiesActions.pageLoadFailed({ folderId: '', page: 1, message: 'The server is down.' }),
    );
    store = makeStore({ ...signedInState(), entities: failed });
    renderWithProviders(<EntityList />, { store });
    expect(screen.getByText('This folder could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('The server is down.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(store.getState().entities.list.status).toBe('loading');
  });
});
