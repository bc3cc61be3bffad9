/**
 * Lazily loaded components, and the antd styles they may need. antd runs in zero-runtime mode
 * (app/theme.ts): the shell's stylesheet holds the styles of the components the shell and the
 * folder page use, and the styles of every other antd component arrive with the first lazy chunk
 * (`virtual:antd-later-styles`, made at build time by scripts/vite/antdStyles.ts).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

let laterStyles: Promise<void> | null = null;

/**
 * Puts the styles of the antd components outside the shell into the document, once: a `<style>`
 * before the first stylesheet, so the app's own rules keep coming after antd's.
 * @returns a promise settled when they are in place (a failed load is tried again next time)
 */
export function loadLaterStyles(): Promise<void> {
  laterStyles ??= import('virtual:antd-later-styles').then(
    ({ default: css }) => {
      const style = document.createElement('style');
      style.dataset.antd = 'later';
      style.textContent = css;
      const firstSheet = document.head.querySelector('link[rel="stylesheet"], style');
      document.head.insertBefore(style, firstSheet);
    },
    (error: unknown) => {
      laterStyles = null;
      throw error;
    },
  );
  return laterStyles;
}

/** Any component, as `React.lazy` takes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
type AnyComponent = ComponentType<any>;

/**
 * `React.lazy` of a module's named export, loaded with the later antd styles: `load` must be the
 * `import()` itself, written out at each call, so that Vite makes the chunk.
 */
export function lazyNamed<M extends Record<K, AnyComponent>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(() =>
    Promise.all([load(), loadLaterStyles()]).then(([module]) => ({ default: module[name] })),
  );
}

/**
 * {@link lazyNamed} for a part of the folder page whose antd components all have their styles in
 * the shell's stylesheet (scripts/vite/antdStyles.ts SHELL_COMPONENTS): it does not wait for the
 * later styles, which a first load would otherwise fetch and apply before the first rows.
 */
export function lazyShellPart<M extends Record<K, AnyComponent>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
