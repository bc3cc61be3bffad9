/** The authorisation matrix's rows for search (issue 9); see routeTable.ts for the shape. */
import type { RouteRow } from './routeTable';

export const SEARCH_ROWS: RouteRow[] = [];
