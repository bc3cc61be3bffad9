/** The root reducer: one slice per feature. */
import { combineReducers } from '@reduxjs/toolkit';
import { firmsReducer } from '../features/firms/firmsSlice';
import { folderPermissionsReducer } from '../features/folderPermissions/folderPermissionsSlice';
import { collectionsReducer } from '../features/collections/collectionsSlice';
import { detailsReducer } from '../features/details/detailsSlice';
import { documentRequestsReducer } from '../features/documentRequests/documentRequestsSlice';
import { entitiesReducer } from '../features/entities/entitiesSlice';
import { examinerExportReducer } from '../features/examinerExport/examinerExportSlice';
import { flagsReducer } from '../features/flags/flagsSlice';
import { folderTreeReducer } from '../features/folderTree/folderTreeSlice';
import { organiseReducer } from '../features/organise/organiseSlice';
import { notificationsReducer } from '../features/notifications/notificationsSlice';
import { sessionTimeoutReducer } from '../features/sessionTimeout/sessionTimeoutSlice';
import { imagingReducer } from '../features/imaging/imagingSlice';
import { historyReducer } from '../features/history/historySlice';
import { sessionReducer } from '../features/session/sessionSlice';
import { uploadsReducer } from '../features/uploads/uploadsSlice';
import { contactsReducer } from '../features/contacts/contactsSlice';
import { indexFieldsReducer } from '../features/indexFields/indexFieldsSlice';
import { recordsReducer } from '../features/records/recordsSlice';
import { outboxReducer } from '../features/outbox/outboxSlice';
import { searchReducer } from '../features/search/searchSlice';
import { sharingReducer } from '../features/sharing/sharingSlice';
import { versionsReducer } from '../features/versions/versionsSlice';
import { viewerReducer } from '../features/viewer/viewerSlice';
import { integrationsReducer } from '../features/integrations/integrationsSlice';
import { membersReducer } from '../features/members/membersSlice';
import { teamsReducer } from '../features/teams/teamsSlice';
import { publicRequestReducer } from '../features/documentRequests/public/publicRequestSlice';
import { replayReducer } from '../features/replay/replaySlice';

/** Combines the feature slices. */
export const rootReducer = combineReducers({
  session: sessionReducer,
  sessionTimeout: sessionTimeoutReducer,
  notifications: notificationsReducer,
  flags: flagsReducer,
  entities: entitiesReducer,
  uploads: uploadsReducer,
  history: historyReducer,
  details: detailsReducer,
  collections: collectionsReducer,
  organise: organiseReducer,
  folderTree: folderTreeReducer,
  members: membersReducer,
  teams: teamsReducer,
  folderPermissions: folderPermissionsReducer,
  integrations: integrationsReducer,
  firms: firmsReducer,
  sharing: sharingReducer,
  outbox: outboxReducer,
  indexFields: indexFieldsReducer,
  contacts: contactsReducer,
  search: searchReducer,
  imaging: imagingReducer,
  viewer: viewerReducer,
  versions: versionsReducer,
  examinerExport: examinerExportReducer,
  records: recordsReducer,
  publicRequest: publicRequestReducer,
  documentRequests: documentRequestsReducer,
  replay: replayReducer,
});

/** The whole store state. */
export type RootState = ReturnType<typeof rootReducer>;
