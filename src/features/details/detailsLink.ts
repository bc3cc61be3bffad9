/**
 * Deep links to the side panel: the item open in it is named in the page's address as
 * `?details=file:<id>` (or `folder:<id>`), so a reload, a bookmark or a link sent to a colleague opens
 * the same item again, as in Box or Google Drive. The address follows the panel with `replace`
 * (opening an item adds no history entry); an address that names another item, or none, after a
 * navigation (Back, a link) opens that item or closes the panel.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ROOT_FOLDER_ID } from '@common/constants';
import type { EntityRef } from '@common/entities';
import { VIEWER_PARAM, withoutViewerParams } from '@src/app/viewerLink';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectDetailsTarget } from './detailsSelectors';
import { detailsActions } from './detailsSlice';

/** The search parameter that names the item open in the side panel. */
export const DETAILS_PARAM = 'details';

/** Ids as the server issues them (UUIDs) and as tests name them; anything else is ignored. */
const ID_PATTERN = /^[0-9A-Za-z-]{1,64}$/;

/**
 * The parameter's value for an item: `file:<id>` or `folder:<id>`; null for none and for the root
 * folder, whose panel (the firm's statistics) is not linked.
 */
export function formatDetailsParam(ref: EntityRef | null): string | null {
  if (!ref || ref.id === ROOT_FOLDER_ID) return null;
  return `${ref.type}:${ref.id}`;
}

/**
 * Reads the parameter's value.
 * @returns the item it names, or null when absent or malformed (never throws: the address is
 *   anybody's to type)
 */
export function parseDetailsParam(value: string | null): EntityRef | null {
  if (!value) return null;
  const colon = value.indexOf(':');
  const type = value.slice(0, colon);
  const id = value.slice(colon + 1);
  if (colon <= 0 || (type !== 'file' && type !== 'folder') || !ID_PATTERN.test(id)) return null;
  return { type, id };
}

/**
 * A page's own query without the side panel's and the viewer's parameters (`details`; `view` and,
 * with it, `page`: see app/viewerLink.ts; a `page` without `view` is the page's own, as Missing
 * indexes' list page), for pages whose view is read from the whole query (History, Search,
 * Missing indexes): opening an item, or a file in the viewer, must not reload their lists.
 */
export function withoutDetailsParam(params: URLSearchParams): string {
  if (!params.has(DETAILS_PARAM) && !params.has(VIEWER_PARAM)) return params.toString();
  const rest = withoutViewerParams(params);
  rest.delete(DETAILS_PARAM);
  return rest.toString();
}

/**
 * Keeps the side panel and the address in step (mounted once, in the app layout, for internal
 * users). On the first render an address naming an item opens it. Afterwards, when the panel
 * changes (the app opened, switched or closed it) the address follows; when only the address
 * changes (a navigation) the panel follows.
 *
 * Code that navigates must not also open or close the panel in the same step: the router applies
 * a navigation in a transition, after the store's change has rendered, and the address written for
 * the panel would replace the navigation. It names the item in the address it goes to instead
 * (a search hit, see hitRoute), or names none, which closes the panel (the panel's Open button).
 */
export function useDetailsDeepLink(): void {
  const dispatch = useAppDispatch();
  const target = useAppSelector(selectDetailsTarget);
  const [params, setParams] = useSearchParams();
  const linked = params.get(DETAILS_PARAM);
  const shown = formatDetailsParam(target);
  const previous = useRef<{ linked: string | null; shown: string | null } | null>(null);

  useEffect(() => {
    const before = previous.current;
    previous.current = { linked, shown };
    if (linked === shown) return;
    const follow = () => {
      const ref = parseDetailsParam(linked);
      if (ref) dispatch(detailsActions.panelOpened(ref));
      else if (shown) dispatch(detailsActions.panelClosed());
    };
    const write = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (shown) next.set(DETAILS_PARAM, shown);
          else next.delete(DETAILS_PARAM);
          return next;
        },
        { replace: true },
      );
    if (before === null) {
      // First render: a linked item opens; otherwise the address shows what is open.
      if (parseDetailsParam(linked)) follow();
      else write();
    } else if (before.shown !== shown) {
      write();
    } else if (before.linked !== linked) {
      follow();
    }
  }, [dispatch, linked, shown, setParams]);
}
