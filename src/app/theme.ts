/** The antd theme of the app. */
import type { ThemeConfig } from 'antd';

/** Brand colours used by the theme and the stylesheet. */
export const BRAND = {
  primary: '#1f5c99',
  header: '#0f2a44',
  headerText: '#ffffff',
} as const;

/** Theme tokens: a calm blue for a financial audience, compact radii, system fonts. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    colorLink: BRAND.primary,
    borderRadius: 6,
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
