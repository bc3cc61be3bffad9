// Window widths in the client tests: jsdom's matchMedia stub (setup.ts) matches no query.

/**
 * Makes window.matchMedia match exactly `queries` (e.g. TREE_PANE_QUERY for a desktop window).
 * @returns a function that puts the stub back
 */
export function matchOnly(...queries: string[]): () => void {
  const original = window.matchMedia;
  window.matchMedia = (text: string) => ({ ...original(text), matches: queries.includes(text) });
  return () => {
    window.matchMedia = original;
  };
}
