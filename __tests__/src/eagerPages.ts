/**
 * The jsdom tests' stand-in for src/app/lazyPages.tsx (jest.config.js maps it here): the same
 * pages, imported eagerly, so a test that renders a route finds its page at once instead of a
 * Suspense fallback. The lazy split itself is a bundling concern, exercised by the end-to-end
 * tests in Chromium.
 */
export { AdminPage } from '@src/features/admin/components/AdminPage';
export { ArchivePage } from '@src/features/collections/components/ArchivePage';
export { FavoritesPage } from '@src/features/collections/components/FavoritesPage';
export { RecentPage } from '@src/features/collections/components/RecentPage';
export { HistoryPage } from '@src/features/history/components/HistoryPage';
export { MissingIndexesPage } from '@src/features/indexFields/components/MissingIndexesPage';
export { SearchResultsPage } from '@src/features/search/components/SearchResultsPage';
export { SharedPage } from '@src/features/sharing/components/SharedPage';
export { InvitationPage } from '@src/features/sharing/components/InvitationPage';
export { RequestsPage } from '@src/features/documentRequests/components/RequestsPage';
export { RequestPage } from '@src/features/documentRequests/components/RequestPage';
export { RequestLinkPage } from '@src/features/documentRequests/public/RequestLinkPage';
export { DetailsPanel } from '@src/features/details/components/DetailsPanel';
export { ReplayPage } from '@src/features/replay/components/ReplayPage';
export { CaseFilePage } from '@src/features/replay/components/CaseFilePage';
