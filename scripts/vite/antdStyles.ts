/**
 * antd's component styles for the components Dossier uses, generated at build time. The theme runs
 * in zero-runtime mode (src/app/theme.ts): components generate no CSS in the browser, so their
 * rules must come from a stylesheet. antd's own antd/dist/antd.css holds every component (995 KB,
 * 112 KB gzip); these are two smaller ones made the way antd makes it (each component rendered
 * once on the server into a cssinjs cache, `hashed: false`, the cache extracted):
 * - `virtual:antd-shell.css`: the components of the shell and the folder page
 *   ({@link SHELL_COMPONENTS}), imported first by src/main.tsx;
 * - `virtual:antd-later-styles`: a module whose default export is the CSS of every other
 *   component the client imports from antd, which src/app/lazyNamed.ts puts in a `<style>`
 *   ahead of the app's stylesheet with the first lazy chunk (so the app's rules still come after
 *   antd's, as with one stylesheet).
 * The later list is read from the source (`import { … } from 'antd'` under src/), so a component
 * newly used gets its styles; one that cannot be rendered here fails the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as CssInJs from '@ant-design/cssinjs';
import type * as React from 'react';
import type { ComponentType, ReactElement, ReactNode } from 'react';
import type * as ReactDomServer from 'react-dom/server';
import type { Plugin } from 'vite';

/** The antd components the folder page and the shell around it render before any lazy chunk. */
export const SHELL_COMPONENTS = [
  'Alert',
  'App',
  'Breadcrumb',
  'Button',
  'Checkbox',
  'Drawer',
  'Dropdown',
  'Empty',
  'Input',
  'Layout',
  'Modal',
  'Popover',
  'Result',
  'Space',
  'Spin',
  'Tooltip',
  'Tree',
  'Typography',
] as const;

/** Names imported from antd that are no component with styles of their own. */
const NOT_STYLED = new Set(['ConfigProvider', 'theme', 'Grid', 'version']);

const require = createRequire(import.meta.url);

/** The antd names imported (not as types) by the client's sources under `srcDir`. */
export function antdImportsOf(srcDir: string): string[] {
  const names = new Set<string>();
  const files = readdirSync(srcDir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && /\.tsx?$/.test(entry.name),
  );
  for (const file of files) {
    const text = readFileSync(path.join(file.parentPath, file.name), 'utf8');
    for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]antd['"]/g)) {
      if (match[1]) continue;
      for (const part of (match[2] ?? '').split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0] ?? '';
        if (name !== '' && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return [...names].sort();
}

type Loose = ComponentType<Record<string, unknown>>;
type Antd = Record<string, Loose & Record<string, unknown>>;

/**
 * The elements that make a component register all its styles: its parts, and for components
 * shown in a popup or a portal (which render nothing on the server) their pure panel.
 */
function elementsOf(name: string, antd: Antd, h: typeof React.createElement): ReactNode[] {
  const C = antd[name];
  if (!C) throw new Error(`antd has no export ${name}`);
  const panel = (component: Record<string, unknown>, props: Record<string, unknown> = {}) =>
    h(component._InternalPanelDoNotUseOrYouWillBeFired as Loose, props);
  const items = [{ key: 'a', label: 'a' }];
  switch (name) {
    case 'App': {
      // message and modal.confirm through App.useApp (Modal's own panel); no notification.
      return [h(C), panel(antd.message as unknown as Record<string, unknown>, { content: 'a' })];
    }
    case 'Breadcrumb':
      return [h(C, { items: [{ title: 'a' }, { title: 'b', menu: { items } }] })];
    case 'Checkbox':
      return [h(C), h(C.Group as Loose, { options: ['a'] })];
    case 'DatePicker':
      return [h(C), h(C.RangePicker as Loose), panel(C)];
    case 'Drawer': {
      // A drawer renders into a portal, which a server render has not: its style hook directly.
      const useStyle = (require('antd/lib/drawer/style') as { default: (prefix: string) => void })
        .default;
      const DrawerStyles = () => {
        useStyle('ant-drawer');
        return null;
      };
      return [h(DrawerStyles)];
    }
    case 'Dropdown':
      return [
        h(C, { menu: { items } }, h('span')),
        panel(C, { menu: { items } }),
        h(antd.Menu!, { items }),
      ];
    case 'Form':
      return [
        h(C, { layout: 'vertical' }, h(C.Item as Loose, { label: 'a', help: 'a' }, h(antd.Input!))),
      ];
    case 'Input':
      return [h(C), h(C.Search as Loose), h(C.TextArea as Loose), h(C.Password as Loose)];
    case 'Layout':
      return [h(C, {}, h(C.Sider as Loose), h(C.Header as Loose), h(C.Content as Loose))];
    case 'List':
      return [
        h(C, { dataSource: ['a'], renderItem: (item: string) => h(C.Item as Loose, {}, item) }),
      ];
    case 'Modal':
      return [panel(C, { title: 'a' }), panel(C, { type: 'confirm', title: 'a' })];
    case 'Popconfirm':
    case 'Popover':
    case 'Tooltip':
      return [panel(C, { title: 'a', content: 'a' })];
    case 'Radio':
      return [h(C), h(C.Group as Loose, { options: ['a'], optionType: 'button' })];
    case 'Select':
      return [h(C), panel(C)];
    case 'Space':
      return [h(C), h(C.Compact as Loose)];
    case 'Steps':
      return [h(C, { items: [{ title: 'a' }, { title: 'b' }] })];
    case 'Tabs':
      return [h(C, { items: [{ key: 'a', label: 'a', children: 'a' }] })];
    case 'Table':
      return [
        h(C, {
          columns: [{ title: 'a', dataIndex: 'a', sorter: true }],
          dataSource: [{ key: 'a', a: 'a' }],
          rowSelection: {},
        }),
      ];
    case 'Tree':
      return [h(C, { treeData: [{ key: 'a', title: 'a' }] })];
    case 'Typography':
      return [h(C.Title as Loose), h(C.Text as Loose), h(C.Paragraph as Loose), h(C.Link as Loose)];
    case 'Upload':
      return [h(C), h(C.Dragger as Loose)];
    default:
      return [h(C)];
  }
}

/**
 * The token variables antd writes for a ConfigProvider's own `.css-var-<React id>` class: a
 * server render's ids (`_R_…_`) never match the browser's, where the ConfigProvider writes its
 * own (with Dossier's theme), so these blocks are dropped.
 */
const SERVER_TOKEN_BLOCK = /\.css-var-_R_[A-Za-z0-9_]*_\{[^}]*\}/g;

/**
 * The CSS of groups of antd components, as antd builds antd/dist/antd.css (plain, unhashed, CSS
 * variables): each group's stylesheet holds the rules no earlier group's has (the first holds
 * the shared reset and variables too).
 * @param groups component names per stylesheet, in the order they load
 * @returns one stylesheet per group
 * @throws Error when a name is no antd component or fails to render on the server
 */
export function antdStylesOf(groups: readonly (readonly string[])[]): string[] {
  const antd = require('antd') as Antd;
  const cssinjs = require('@ant-design/cssinjs') as typeof CssInJs;
  const react = require('react') as typeof React;
  const { renderToString } = require('react-dom/server') as typeof ReactDomServer;
  const cache = cssinjs.createCache();
  return groups.map((names) => {
    const elements: ReactElement[] = names
      .filter((name) => !NOT_STYLED.has(name))
      .flatMap((name) =>
        elementsOf(name, antd, react.createElement).map((node, i) =>
          react.createElement(react.Fragment, { key: `${name}-${i}` }, node),
        ),
      );
    renderToString(
      react.createElement(
        cssinjs.StyleProvider,
        { cache },
        react.createElement(antd.ConfigProvider!, { theme: { hashed: false } }, elements),
      ),
    );
    return cssinjs.extractStyle(cache, { plain: true, once: true }).replace(SERVER_TOKEN_BLOCK, '');
  });
}

const SHELL_ID = 'virtual:antd-shell.css';
const LATER_ID = 'virtual:antd-later-styles';

/**
 * The plugin: resolves `virtual:antd-shell.css` (a stylesheet) and `virtual:antd-later-styles`
 * (a module exporting CSS text) to the styles of the shell's components and of the rest of the
 * components imported under `src/`.
 */
export function antdStyles(srcDir: string): Plugin {
  let built: { shell: string; later: string } | null = null;
  const stylesFor = (id: string): string => {
    if (!built) {
      const shell = new Set<string>(SHELL_COMPONENTS);
      const later = antdImportsOf(srcDir).filter((name) => !shell.has(name));
      const [shellCss = '', laterCss = ''] = antdStylesOf([[...shell], later]);
      built = { shell: shellCss, later: laterCss };
    }
    return id === SHELL_ID ? built.shell : built.later;
  };
  return {
    name: 'dossier-antd-styles',
    resolveId(id) {
      return id === SHELL_ID || id === LATER_ID ? id : null;
    },
    load(id) {
      if (id === SHELL_ID) return stylesFor(id);
      if (id === LATER_ID) return `export default ${JSON.stringify(stylesFor(id))};`;
      return null;
    },
  };
}
