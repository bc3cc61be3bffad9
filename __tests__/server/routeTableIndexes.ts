/** The authorisation matrix's rows for index fields and applied indexes (issue 9); see routeTable.ts for the shape. */
import type { RouteRow } from './routeTable';

export const INDEX_ROWS: RouteRow[] = [];
