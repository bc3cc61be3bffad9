/**
 * Side effects of the examiner's export: searching contacts for the chooser, asking for an export
 * and starting its download in the browser (a plain GET of its single-use link, which the browser
 * streams to disk and shows in its downloads), then reading its progress every
 * EXAMINER_PROGRESS_POLL_MS until it is done, failed or expired (or the session ends, or another
 * export is asked for). Every worker is wrapped with `safely`.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, delay, put, race, take, takeLatest } from 'typed-redux-saga';
import {
  EXAMINER_PROGRESS_POLL_MS,
  type ExaminerExportDto,
  type ExaminerScope,
  type ExportVersions,
} from '@common/examinerExport';
import { errorMessage } from '@src/api/client';
import { safely } from '@src/sagas/safely';
import * as contactsApi from '../contacts/contactsApi';
import { CONTACT_SEARCH_DEBOUNCE_MS } from '../contacts/contactsSagas';
import { startDownload } from '../organise/organiseSagas';
import { sessionActions } from '../session/sessionSlice';
import * as examinerExportApi from './examinerExportApi';
import {
  contactChoices,
  COULD_NOT_EXPORT,
  COULD_NOT_READ_PROGRESS,
  COULD_NOT_SEARCH_CONTACTS,
  examinerExportActions,
  isActive,
} from './examinerExportSlice';
import type { Saga } from '@src/sagas/saga';

/** Progress reads in a row that may fail before the client stops asking. */
export const PROGRESS_FAILURES_TOLERATED = 5;

/** The chooser's text changed: after a pause, search the firm's contacts (nothing for blank). */
export function* searchContacts(action: PayloadAction<string>): Saga {
  const query = action.payload;
  if (query.trim() === '') return;
  yield* delay(CONTACT_SEARCH_DEBOUNCE_MS);
  try {
    const items = yield* call(contactsApi.searchContacts, query);
    yield* put(examinerExportActions.contactsLoaded({ query, items: contactChoices(items) }));
  } catch (error) {
    yield* put(
      examinerExportActions.contactsFailed({
        query,
        error: `${COULD_NOT_SEARCH_CONTACTS} ${errorMessage(error)}`.trim(),
      }),
    );
  }
}

/** Reads an export's progress until it is no longer ready or running. */
export function* followProgress(id: string): Saga {
  let failures = 0;
  for (;;) {
    yield* delay(EXAMINER_PROGRESS_POLL_MS);
    try {
      const current = yield* call(examinerExportApi.fetchExport, id);
      failures = 0;
      yield* put(examinerExportActions.progressLoaded(current));
      if (!isActive(current)) return;
    } catch {
      failures += 1;
      yield* put(examinerExportActions.progressFailed(COULD_NOT_READ_PROGRESS));
      if (failures >= PROGRESS_FAILURES_TOLERATED) return;
    }
  }
}

/** Asks for the export, starts its download, and follows its progress. */
export function* runExport(
  action: PayloadAction<{ scope: ExaminerScope; versions: ExportVersions }>,
): Saga {
  let created: ExaminerExportDto;
  try {
    created = yield* call(examinerExportApi.requestExport, action.payload);
  } catch (error) {
    yield* put(examinerExportActions.exportFailed(`${COULD_NOT_EXPORT} ${errorMessage(error)}`));
    return;
  }
  yield* put(examinerExportActions.exportStarted(created));
  if (created.url) yield* call(startDownload, created.url);
  yield* race({
    followed: call(followProgress, created.id),
    ended: take([
      sessionActions.signedOut.type,
      sessionActions.expired.type,
      sessionActions.endedInAnotherTab.type,
      sessionActions.databaseSwitched.type,
    ]),
  });
}

/** The examiner's export feature saga. */
export function* examinerExportSaga(): Saga {
  yield* all([
    takeLatest(examinerExportActions.contactQueryChanged.type, safely(searchContacts)),
    takeLatest(examinerExportActions.exportRequested.type, safely(runExport)),
  ]);
}
