/** The authorisation matrix's rows for the mail outbox (issue 7); see routeTable.ts for the shape. */
import type { RouteRow } from './routeTable';

export const OUTBOX_ROWS: RouteRow[] = [];
