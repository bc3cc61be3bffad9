/**
 * The ordered list of migrations. Each is code (not a file scan) so the same list runs under tsx,
 * Jest and any bundler; names sort in the order they must run.
 */
import type { Migration } from 'kysely';
import { initial } from './0001_initial';
import { historyChain } from './0002_history_chain';
import { uploadChecksums } from './0003_upload_checksums';
import { organise } from './0004_organise';
import { listIndexes } from './0006_list_indexes';
import { permissions } from './0007_permissions';
import { usersAdmin } from './0008_users_admin';
import { integrations } from './0009_integrations';
import { sharing } from './0010_sharing';
import { indexFields } from './0011_index_fields';
import { contacts } from './0012_contacts';
import { search } from './0013_search';
import { searchArchivePath } from './0014_search_archive_path';
import { fileFingerprints } from './0015_file_fingerprints';
import { historyExportRecords } from './0016_history_export_records';
import { folderTreeVersions } from './0017_folder_tree_versions';
import { loginSources } from './0018_login_sources';
import { uploadBatches } from './0019_upload_batches';
import { imagingJobs } from './0020_imaging_jobs';
import { contentSearch } from './0021_content_search';
import { sortAndZip } from './0022_sort_and_zip';
import { storeUploadIds } from './0023_store_upload_ids';
import { sharedInstanceState } from './0024_shared_instance_state';
import { firmProvisioning } from './0025_firm_provisioning';
import { fileVersions } from './0026_file_versions';
import { retentionHolds } from './0027_retention_holds';
import { examinerExports } from './0028_examiner_exports';
import { documentRequests } from './0029_document_requests';
import { replaySnapshots } from './0030_replay_snapshots';

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_history_chain': historyChain,
  '0003_upload_checksums': uploadChecksums,
  '0004_organise': organise,
  '0006_list_indexes': listIndexes,
  '0007_permissions': permissions,
  '0008_users_admin': usersAdmin,
  '0009_integrations': integrations,
  '0010_sharing': sharing,
  '0011_index_fields': indexFields,
  '0012_contacts': contacts,
  '0013_search': search,
  '0014_search_archive_path': searchArchivePath,
  '0015_file_fingerprints': fileFingerprints,
  '0016_history_export_records': historyExportRecords,
  '0017_folder_tree_versions': folderTreeVersions,
  '0018_login_sources': loginSources,
  '0019_upload_batches': uploadBatches,
  '0020_imaging_jobs': imagingJobs,
  '0021_content_search': contentSearch,
  '0022_sort_and_zip': sortAndZip,
  '0023_store_upload_ids': storeUploadIds,
  '0024_shared_instance_state': sharedInstanceState,
  '0025_firm_provisioning': firmProvisioning,
  '0026_file_versions': fileVersions,
  '0027_retention_holds': retentionHolds,
  '0028_examiner_exports': examinerExports,
  '0029_document_requests': documentRequests,
  '0030_replay_snapshots': replaySnapshots,
};
