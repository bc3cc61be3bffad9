/**
 * The /logout route: records the logout event, ends the server session, clears the store's
 * session and shows the sign-in page (SPEC section 2: "/logout is where the user is sent on
 * session timeout"). `/logout?reason=timeout` (the inactivity timeout) makes the sign-in page say
 * so.
 */
import { Spin } from 'antd';
import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { selectCurrentUser, selectSignOutStatus } from '../sessionSelectors';
import { sessionActions } from '../sessionSlice';

/** Signs out on arrival, then goes to /login. */
export function LogoutPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectCurrentUser);
  const signOut = useAppSelector(selectSignOutStatus);
  const signedIn = user !== null;
  const [params] = useSearchParams();
  const timedOut = params.get('reason') === 'timeout';

  useEffect(() => {
    if (signedIn) {
      dispatch(sessionActions.signOutRequested(timedOut ? { reason: 'timedOut' } : undefined));
    }
  }, [dispatch, signedIn, timedOut]);

  if (!signedIn && signOut !== 'loading') return <Navigate to="/login" replace />;
  return (
    <div className="full-page-center" role="status">
      <Spin size="large" description="Signing out…">
        <div className="full-page-spin-area" />
      </Spin>
    </div>
  );
}
