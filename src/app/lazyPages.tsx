/**
 * The pages that are not the first one most users see, loaded on demand: each is its own chunk,
 * so the first load (sign-in, the folder page and the shell) parses only what it shows. Vite
 * splits at these dynamic imports; the router renders them inside AppLayout's Suspense. Each
 * brings the antd styles outside the shell (./lazyNamed).
 */
import { lazyNamed } from './lazyNamed';

export const AdminPage = lazyNamed(
  () => import('../features/admin/components/AdminPage'),
  'AdminPage',
);
export const ArchivePage = lazyNamed(
  () => import('../features/collections/components/ArchivePage'),
  'ArchivePage',
);
export const FavoritesPage = lazyNamed(
  () => import('../features/collections/components/FavoritesPage'),
  'FavoritesPage',
);
export const RecentPage = lazyNamed(
  () => import('../features/collections/components/RecentPage'),
  'RecentPage',
);
export const HistoryPage = lazyNamed(
  () => import('../features/history/components/HistoryPage'),
  'HistoryPage',
);
export const MissingIndexesPage = lazyNamed(
  () => import('../features/indexFields/components/MissingIndexesPage'),
  'MissingIndexesPage',
);
export const SearchResultsPage = lazyNamed(
  () => import('../features/search/components/SearchResultsPage'),
  'SearchResultsPage',
);
export const SharedPage = lazyNamed(
  () => import('../features/sharing/components/SharedPage'),
  'SharedPage',
);
export const RequestsPage = lazyNamed(
  () => import('../features/documentRequests/components/RequestsPage'),
  'RequestsPage',
);
export const RequestPage = lazyNamed(
  () => import('../features/documentRequests/components/RequestPage'),
  'RequestPage',
);
/** The page a client opens from a document request's link (public, outside the shell). */
export const RequestLinkPage = lazyNamed(
  () => import('../features/documentRequests/public/RequestLinkPage'),
  'RequestLinkPage',
);
/** A folder as it was at any moment (Replay), and its printable case file. */
export const ReplayPage = lazyNamed(
  () => import('../features/replay/components/ReplayPage'),
  'ReplayPage',
);
export const CaseFilePage = lazyNamed(
  () => import('../features/replay/components/CaseFilePage'),
  'CaseFilePage',
);
export const InvitationPage = lazyNamed(
  () => import('../features/sharing/components/InvitationPage'),
  'InvitationPage',
);
/**
 * The side panel of an item (details, index values, contacts, sharing, its history): it brings
 * the date picker, selects and the share dialog, which the first rows of a folder do not need.
 * AppLayout mounts it only once there is something to show.
 */
export const DetailsPanel = lazyNamed(
  () => import('../features/details/components/DetailsPanel'),
  'DetailsPanel',
);
