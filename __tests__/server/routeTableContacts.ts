/** The authorisation matrix's rows for contacts and folder contacts (issue 9); see routeTable.ts for the shape. */
import type { RouteRow } from './routeTable';

export const CONTACT_ROWS: RouteRow[] = [];
