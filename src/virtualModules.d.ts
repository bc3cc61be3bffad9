/** Modules made at build time by the Vite plugins in scripts/vite. */
declare module 'virtual:antd-later-styles' {
  /** The CSS of the antd components outside the shell (scripts/vite/antdStyles.ts). */
  const css: string;
  export default css;
}
