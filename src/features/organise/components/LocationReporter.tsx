/**
 * Reports every change of the router's path as `navigation/locationChanged`, so that sagas can
 * tell the user left a page (an open Undo is then given up, src/sagas/undoable.ts). Renders
 * nothing; mounted once inside the router.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { undoEvents } from '@src/sagas/undoable';
import { useAppDispatch } from '@src/store/hooks';

/** Dispatches `navigation/locationChanged` whenever the path changes. */
export function LocationReporter() {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  useEffect(() => {
    dispatch(undoEvents.locationChanged({ pathname }));
  }, [dispatch, pathname]);
  return null;
}
