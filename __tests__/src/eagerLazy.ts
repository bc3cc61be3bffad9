/**
 * The jsdom tests' stand-in for src/app/lazyNamed.ts (jest.config.js maps it here): each part
 * starts loading when its module is imported, long before a test renders it, and renders at once
 * once loaded, so a test finds it without a Suspense fallback in between. Chunks and the later
 * antd styles are a bundling concern, exercised by the end-to-end tests in Chromium.
 */
import { createElement, lazy, type ComponentType } from 'react';

/** No styles to load in jsdom. */
export function loadLaterStyles(): Promise<void> {
  return Promise.resolve();
}

/** The named export, rendered directly once its module has loaded (React.lazy before that). */
export function lazyNamed<M extends Record<K, ComponentType<never>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): ComponentType<Record<string, unknown>> {
  let loaded: ComponentType<Record<string, unknown>> | null = null;
  const ready = load().then((module) => {
    loaded = module[name] as unknown as ComponentType<Record<string, unknown>>;
    return { default: loaded };
  });
  const Pending = lazy(() => ready);
  return function EagerPart(props: Record<string, unknown>) {
    return loaded ? createElement(loaded, props) : createElement(Pending, props);
  };
}

/** The same as {@link lazyNamed} in jsdom. */
export const lazyShellPart = lazyNamed;
