/**
 * The type of every saga in the client: a generator that yields redux-saga effects, among them
 * the combinators (`all`, `race`) over typed effects, and returns `R`. The effects come from
 * typed-redux-saga and are delegated to with `yield*`, so each one's result has the type of the
 * function called, the selector read or the action taken, without a cast.
 */
import type { Effect } from 'redux-saga/effects';

/** A saga returning `R` (nothing by default). */
export type Saga<R = void> = Generator<Effect, R, unknown>;
