/**
 * Vite plugin: src/main.tsx starts the first page's API calls and then imports the app
 * (src/app/start.tsx) dynamically, so that the calls leave before the app's code has loaded. This
 * plugin lists the app's chunks (the dynamic import's static graph) in index.html as
 * `modulepreload` links and its stylesheets as `stylesheet` links, so the browser fetches them
 * alongside the entry instead of after it has run (build only).
 */
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** The chunks a chunk needs before it runs: itself and its static imports, transitively. */
function staticGraph(bundle: OutputBundle, start: string): OutputChunk[] {
  const seen = new Set<string>();
  const chunks: OutputChunk[] = [];
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    chunks.push(chunk);
    chunk.imports.forEach(visit);
  };
  visit(start);
  return chunks;
}

/** The plugin; `appModule` is the dynamically imported module's path ending ('src/app/start.tsx'). */
export function preloadApp(appModule: string): Plugin {
  return {
    name: 'dossier-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        const entry = context.chunk;
        if (!bundle || !entry) return [];
        const app = entry.dynamicImports
          .map((fileName) => bundle[fileName])
          .find(
            (chunk): chunk is OutputChunk =>
              chunk?.type === 'chunk' && (chunk.facadeModuleId ?? '').endsWith(appModule),
          );
        if (!app) throw new Error(`preloadApp: the entry does not import ${appModule}`);
        const already = new Set([entry.fileName, ...entry.imports]);
        const tags: HtmlTagDescriptor[] = [];
        for (const chunk of staticGraph(bundle, app.fileName)) {
          if (!already.has(chunk.fileName)) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
              injectTo: 'head',
            });
          }
          for (const css of chunk.viteMetadata?.importedCss ?? []) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'stylesheet', crossorigin: true, href: `/${css}` },
              injectTo: 'head',
            });
          }
        }
        return tags;
      },
    },
  };
}
