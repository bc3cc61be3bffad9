/** The antd theme of the app. */
import type { ThemeConfig } from 'antd';

/** Brand colours used by the theme and the stylesheet. */
export const BRAND = {
  primary: '#1f5c99',
  header: '#0f2a44',
  headerText: '#ffffff',
} as const;

/**
 * Theme tokens: a calm blue for a financial audience, compact radii, system fonts. antd runs in
 * zero-runtime mode: its component styles come from stylesheets made at build time for the
 * components in use (scripts/vite/antdStyles.ts; the shell's imported first by app/start.tsx)
 * instead of being generated in the browser as components first render, which was a good part
 * of the start-up's work. The tokens still apply, as CSS variables.
 */
export const theme: ThemeConfig = {
  zeroRuntime: true,
  token: {
    colorPrimary: BRAND.primary,
    colorLink: BRAND.primary,
    borderRadius: 6,
    // WCAG 2.2 AA contrast (1.4.3, 4.5:1 on white and on the #f5f7fa page background): antd's
    // defaults for secondary text (#8c8c8c, 3.4:1), placeholders (#bfbfbf, 1.8:1) and danger
    // (#ff4d4f, 3.3:1) are too light.
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorError: '#c41d24',
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: {
      headerBg: BRAND.header,
      headerColor: BRAND.headerText,
      headerHeight: 56,
      headerPadding: '0 24px',
      siderBg: '#ffffff',
      bodyBg: '#f5f7fa',
    },
  },
};
