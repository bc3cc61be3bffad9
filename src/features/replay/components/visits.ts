/**
 * Page visits: each Replay or case file page takes a number when it mounts (React keeps it across
 * Strict Mode's second mount), so the sagas read again what an earlier visit read but never twice
 * for one visit.
 */
let visits = 0;

/** A number no earlier visit had. */
export function nextVisit(): number {
  visits += 1;
  return visits;
}
