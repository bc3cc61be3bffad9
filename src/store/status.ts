/** Shared state vocabulary of the slices. */

/** Status of an asynchronous operation (DESIGN.md section 5: a string union, never booleans). */
export type Status = 'idle' | 'loading' | 'succeeded' | 'failed';
