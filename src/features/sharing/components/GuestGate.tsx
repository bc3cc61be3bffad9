/**
 * The guests' rule of the app shell: a guest sees the Shared page and nothing
 * else, so any other address inside the shell sends them to /sharing/shared.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { SHARED_LANDING } from '@common/sharing';
import { useAppSelector } from '@src/store/hooks';
import { selectIsGuest } from '../sharingSelectors';

/** Whether a guest may stay at this path: /sharing/shared and the folders below it. */
function isGuestPath(pathname: string): boolean {
  return pathname === SHARED_LANDING || pathname.startsWith(`${SHARED_LANDING}/folders/`);
}

/** Renders its children, except for a guest away from the Shared page: then goes there. */
export function GuestGate({ children }: { children: ReactNode }) {
  const guest = useAppSelector(selectIsGuest);
  const { pathname } = useLocation();
  if (guest && !isGuestPath(pathname)) return <Navigate to={SHARED_LANDING} replace />;
  return <>{children}</>;
}
