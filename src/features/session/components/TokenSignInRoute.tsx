/**
 * The single-sign-on page, /sso?token=…&landing=…: a partner app sends the browser here with a
 * single-use token it generated (GET REST/private/auth/generate_token); the page posts it to
 * POST /api/auth/login and then goes to the landing location (SPEC section 2: home or
 * /sharing/shared). The token is removed from the address bar at once so it stays out of the
 * browser's history.
 */
import { Button, Result } from 'antd';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '@common/constants';
import { resolveLanding } from '@src/app/landing';
import { useAppDispatch, useAppSelector } from '@src/store/hooks';
import { flagsActions } from '@src/features/flags/flagsSlice';
import { selectSignIn } from '../sessionSelectors';
import { sessionActions } from '../sessionSlice';
import { SessionLoading } from './SessionGate';

/** Location state that keeps the landing once the token is gone from the URL. */
interface TokenSignInState {
  landing: string | null;
  started: true;
}

/** Renders the /sso route. */
export function TokenSignInRoute() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useAppSelector(selectSignIn);
  const sent = useRef(false);
  const state = location.state as TokenSignInState | null;

  useEffect(() => {
    if (sent.current || state?.started) return;
    const params = new URLSearchParams(location.search);
    const token = params.get('token');
    sent.current = true;
    void navigate(location.pathname, {
      replace: true,
      state: { landing: params.get('landing'), started: true } satisfies TokenSignInState,
    });
    if (token) {
      dispatch(sessionActions.tokenSignInRequested({ token }));
      dispatch(flagsActions.loadRequested());
    }
  }, [dispatch, navigate, location.pathname, location.search, state]);

  if (signIn.status === 'succeeded') {
    return <Navigate to={resolveLanding(state?.landing ?? null)} replace />;
  }
  const missing = !new URLSearchParams(location.search).get('token') && !state?.started;
  if (signIn.status === 'failed' || missing || (state?.started && signIn.status === 'idle')) {
    return (
      <main className="full-page-center">
        <Result
          status="error"
          title="Single sign-on failed"
          subTitle={
            signIn.error ??
            `This sign-in link is missing its token or was already used. Sign in to ${PRODUCT_NAME} instead.`
          }
          extra={
            <Button type="primary">
              <Link to="/login">Sign in</Link>
            </Button>
          }
        />
      </main>
    );
  }
  return <SessionLoading />;
}
