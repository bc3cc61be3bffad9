/**
 * The pages that are not the first one most users see, loaded on demand: each is its own chunk,
 * so the first load (sign-in, the folder page and the shell) parses only what it shows. Vite
 * splits at these dynamic imports; the router renders them inside AppLayout's Suspense.
 */
import { lazy } from 'react';

export const AdminPage = lazy(() =>
  import('../features/admin/components/AdminPage').then((m) => ({ default: m.AdminPage })),
);
export const ArchivePage = lazy(() =>
  import('../features/collections/components/ArchivePage').then((m) => ({
    default: m.ArchivePage,
  })),
);
export const FavoritesPage = lazy(() =>
  import('../features/collections/components/FavoritesPage').then((m) => ({
    default: m.FavoritesPage,
  })),
);
export const RecentPage = lazy(() =>
  import('../features/collections/components/RecentPage').then((m) => ({
    default: m.RecentPage,
  })),
);
export const HistoryPage = lazy(() =>
  import('../features/history/components/HistoryPage').then((m) => ({ default: m.HistoryPage })),
);
export const MissingIndexesPage = lazy(() =>
  import('../features/indexFields/components/MissingIndexesPage').then((m) => ({
    default: m.MissingIndexesPage,
  })),
);
export const SearchResultsPage = lazy(() =>
  import('../features/search/components/SearchResultsPage').then((m) => ({
    default: m.SearchResultsPage,
  })),
);
export const SharedPage = lazy(() =>
  import('../features/sharing/components/SharedPage').then((m) => ({ default: m.SharedPage })),
);
export const InvitationPage = lazy(() =>
  import('../features/sharing/components/InvitationPage').then((m) => ({
    default: m.InvitationPage,
  })),
);

/**
 * The side panel of an item (details, index values, contacts, sharing, its history): it brings
 * the date picker, selects and the share dialog, which the first rows of a folder do not need.
 * AppLayout mounts it only once there is something to show.
 */
export const DetailsPanel = lazy(() =>
  import('../features/details/components/DetailsPanel').then((m) => ({
    default: m.DetailsPanel,
  })),
);
