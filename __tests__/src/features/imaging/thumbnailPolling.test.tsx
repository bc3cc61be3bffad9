/**
 * Thumbnails that document imaging finishes while their list is shown: a file listed without one
 * whose type imaging thumbnails is asked about (its rendition state) until the derivation
 * settles, and its thumbnail then replaces the type icon without the list being read again; files
 * that have one, or whose type gets none, are never asked about; a guest's file is asked about
 * through the share; a file the session can no longer read (404) is not asked about again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import type { FileRenditionDto } from '@common/imaging';
import type { EntityDto } from '@common/entities';
import { EntityList } from '@src/features/entities/components/EntityList';
import {
  entitiesActions,
  entitiesReducer,
  initialEntitiesState,
} from '@src/features/entities/entitiesSlice';
import { FileThumbnail } from '@src/features/imaging/components/FileThumbnail';
import { IMAGING_ENVIRONMENT, type ImagingEnvironment } from '@src/features/imaging/imagingSagas';
import { makeStore, type AppStore } from '@src/store/store';
import { allowConsoleError } from '../../consoleErrors';
import {
  callsTo,
  makeFile,
  makePage,
  renderWithProviders,
  signedInState,
  stubRoutes,
} from '../../testUtils';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function rendition(extra: Partial<FileRenditionDto>): FileRenditionDto {
  return {
    state: 'queued',
    job_id: 'j1',
    reason: null,
    attempts: 0,
    pdf: false,
    text: false,
    thumbnail: false,
    page_count: null,
    recognized: false,
    ...extra,
  };
}

/** Pauses of the polling saga that end at once, counted. */
function quickEnvironment(): ImagingEnvironment & { pauses: number[] } {
  const pauses: number[] = [];
  return {
    pauses,
    wait: (ms) => {
      pauses.push(ms);
      return Promise.resolve();
    },
  };
}

let store: AppStore | null = null;
afterEach(() => {
  store?.sagaTask.cancel();
  store = null;
});

function storeWith(list: EntityDto[], env: ImagingEnvironment): AppStore {
  const opened = entitiesReducer(
    initialEntitiesState,
    entitiesActions.folderOpened({ folderId: '' }),
  );
  const entities = entitiesReducer(
    opened,
    entitiesActions.pageLoaded({ folderId: '', page: makePage(list, 1, list.length) }),
  );
  return makeStore(
    { ...signedInState(), entities },
    { sagaContext: { [IMAGING_ENVIRONMENT]: env } },
  );
}

const row = (id: string) =>
  screen.getAllByTestId('entity-row').find((r) => r.dataset.entityId === id)!;

describe('thumbnails finished while the list is shown', () => {
  it('shows the thumbnail once the derivation made it, without reading the list again', async () => {
    let asked = 0;
    const { calls } = stubRoutes({
      'GET /api/rest/files/d1/rendition': () => {
        asked += 1;
        return {
          body:
            asked < 3
              ? rendition({ state: asked === 1 ? 'queued' : 'running' })
              : rendition({ state: 'done', thumbnail: true, pdf: true, text: true }),
        };
      },
    });
    const env = quickEnvironment();
    store = storeWith(
      [
        makeFile({ id: 'd1', name: 'Memo.docx', extension: 'docx', content_type: DOCX }),
        makeFile({ id: 'p1', name: 'Statement.pdf', thumbnail: true }),
        makeFile({
          id: 'z1',
          name: 'Bundle.zip',
          extension: 'zip',
          content_type: 'application/zip',
        }),
      ],
      env,
    );
    renderWithProviders(<EntityList />, { store });
    expect(row('d1').querySelector('img')).toBeNull();

    await waitFor(() => expect(row('d1').querySelector('img')).not.toBeNull());
    expect(row('d1').querySelector('img')).toHaveAttribute('src', '/api/rest/files/d1/thumbnail');
    // Asked until settled, then no more; the list itself was not read again.
    await waitFor(() => expect(store!.getState().imaging.watchedThumbnails).toEqual({}));
    expect(callsTo(calls, 'GET /api/rest/files/d1/rendition')).toHaveLength(3);
    expect(calls.map((call) => call.url.split('?')[0])).toEqual([
      '/api/rest/files/d1/rendition',
      '/api/rest/files/d1/rendition',
      '/api/rest/files/d1/rendition',
    ]);
    // With pauses that grow while nothing new is shown.
    expect(env.pauses.slice(0, 3)).toEqual([2000, 2000, 4000]);
  });

  it('stops asking about a file whose derivation failed, keeping the icon', async () => {
    const { calls } = stubRoutes({
      'GET /api/rest/files/d2/rendition': {
        body: rendition({ state: 'failed', reason: 'LibreOffice not found' }),
      },
    });
    store = storeWith(
      [makeFile({ id: 'd2', name: 'Broken.docx', extension: 'docx', content_type: DOCX })],
      quickEnvironment(),
    );
    renderWithProviders(<EntityList />, { store });
    await waitFor(() => expect(store!.getState().imaging.settledThumbnails).toEqual({ d2: false }));
    expect(callsTo(calls, 'GET /api/rest/files/d2/rendition')).toHaveLength(1);
    expect(row('d2').querySelector('img')).toBeNull();
  });

  it("asks about a guest's file through the share, and not again once it answers 404", async () => {
    // The API client logs every error answer; this one is expected.
    allowConsoleError(/shared\/files\/s2\/rendition answered 404/);
    const { calls } = stubRoutes({
      'GET /api/rest/shared/files/s1/rendition': {
        body: rendition({ state: 'done', thumbnail: true }),
      },
      'GET /api/rest/shared/files/s2/rendition': {
        status: 404,
        body: { message: 'Your access to this item has ended.', code: 'access_ended' },
      },
    });
    store = makeStore(signedInState(), {
      sagaContext: { [IMAGING_ENVIRONMENT]: quickEnvironment() },
    });
    const { container } = renderWithProviders(
      <>
        <FileThumbnail id="s1" kind="text" thumbnail={false} awaited shared />
        <FileThumbnail id="s2" kind="text" thumbnail={false} awaited shared />
      </>,
      { store },
    );
    await waitFor(() =>
      expect(container.querySelector('img')).toHaveAttribute(
        'src',
        '/api/rest/shared/files/s1/thumbnail',
      ),
    );
    await waitFor(() =>
      expect(store!.getState().imaging.settledThumbnails).toEqual({ s1: true, s2: false }),
    );
    expect(callsTo(calls, 'GET /api/rest/shared/files/s2/rendition')).toHaveLength(1);
    expect(callsTo(calls, 'GET /api/rest/files/s1/rendition')).toHaveLength(0);
    expect(container.querySelectorAll('img')).toHaveLength(1);
  });
});
