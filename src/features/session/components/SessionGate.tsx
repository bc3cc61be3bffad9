/**
 * Session gates of the router: {@link RequireSession} shows the sign-in page in place of any page
 * when nobody is signed in (so deep links survive a reload), {@link SignInRoute} is /login.
 */
import { Button, Result, Spin } from 'antd';
import { Suspense, useEffect, type ReactNode } from 'react';
import { lazyNamed } from '@src/app/lazyNamed';
import { Navigate, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '@common/constants';
import { resolveLanding } from '@src/app/landing';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import type { AppDispatch } from '@src/store/store';
import { flagsActions } from '@src/features/flags/flagsSlice';
import { selectCurrentUser, selectSessionError, selectSessionStatus } from '../sessionSelectors';
import { sessionActions } from '../sessionSlice';

/** The sign-in page (antd's Form and Card): its own chunk, as a signed-in start needs none. */
const LazySignInPage = lazyNamed(() => import('./SignInPage'), 'SignInPage');

/** The sign-in page, with the start-up spinner while its chunk arrives. */
function SignInPage() {
  return (
    <Suspense fallback={<SessionLoading />}>
      <LazySignInPage />
    </Suspense>
  );
}

/**
 * At start-up (nothing known yet) asks the server who is signed in and which feature flags are on,
 * once each.
 */
export function useSessionBootstrap(): void {
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectSessionStatus);
  useEffect(() => {
    if (status !== 'idle') return;
    bootstrapSession(dispatch);
  }, [dispatch, status]);
}

/**
 * Asks who is signed in and which feature flags are on; with `signedInBefore` false (app/start.tsx: no
 * cached user) nobody is, without asking. app/start.tsx calls it before the first render,
 * so both requests travel while React renders (the hook above then finds the session loading and
 * asks nothing again); tests that render without it get the same requests from the hook.
 */
export function bootstrapSession(dispatch: AppDispatch, signedInBefore = true): void {
  // Nobody signed in in this browser (no cached user: signed out, expired or never signed in):
  // asking would only answer 401, which the browser logs as an error on every signed-out load.
  if (signedInBefore) dispatch(sessionActions.currentUserRequested());
  else dispatch(sessionActions.currentUserLoaded(null));
  dispatch(flagsActions.loadRequested());
}

/** Full-page loading indicator while the session is read. */
export function SessionLoading() {
  return (
    <div className="full-page-center" role="status">
      <Spin size="large" description={`Loading ${PRODUCT_NAME}…`}>
        <div className="full-page-spin-area" />
      </Spin>
    </div>
  );
}

/** Props of {@link RequireSession}. */
export interface RequireSessionProps {
  children: ReactNode;
}

/** Renders its children for a signed-in user, the sign-in page otherwise. */
export function RequireSession({ children }: RequireSessionProps) {
  useSessionBootstrap();
  const dispatch = useAppDispatch();
  const status = useAppSelector(selectSessionStatus);
  const error = useAppSelector(selectSessionError);
  const user = useAppSelector(selectCurrentUser);

  if (user) return <>{children}</>;
  if (status === 'idle' || status === 'loading') return <SessionLoading />;
  if (status === 'failed') {
    return (
      <main className="full-page-center">
        <Result
          status="error"
          title={`${PRODUCT_NAME} could not start`}
          subTitle={error}
          extra={
            <Button type="primary" onClick={() => dispatch(sessionActions.currentUserRequested())}>
              Try again
            </Button>
          }
        />
      </main>
    );
  }
  return <SignInPage />;
}

/** The /login route: the sign-in page, or the landing location once signed in (SPEC section 2). */
export function SignInRoute() {
  useSessionBootstrap();
  const status = useAppSelector(selectSessionStatus);
  const user = useAppSelector(selectCurrentUser);
  const [params] = useSearchParams();

  if (user) return <Navigate to={resolveLanding(params.get('landing'))} replace />;
  if (status === 'idle' || status === 'loading') return <SessionLoading />;
  return <SignInPage />;
}
