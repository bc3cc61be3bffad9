/** Typed React-Redux hooks. */
import { useDispatch, useSelector } from 'react-redux';
import type { RootState } from './rootReducer';
import type { AppDispatch } from './store';

/** useDispatch typed with the app's dispatch. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
/** useSelector typed with the app's state. */
export const useAppSelector = useSelector.withTypes<RootState>();
