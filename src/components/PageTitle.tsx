/** The heading of a page, with optional actions on the right. */
import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** Props of {@link PageTitle}. */
export interface PageTitleProps {
  children: ReactNode;
  /** Actions shown at the end of the title row (toolbars). */
  extra?: ReactNode;
}

/** The page's h1 (the document title stays the product name, SPEC section 2). */
export function PageTitle({ children, extra }: PageTitleProps) {
  return (
    <div className="page-title">
      <Typography.Title level={1} className="page-title-text">
        {children}
      </Typography.Title>
      {extra ? <div className="page-title-extra">{extra}</div> : null}
    </div>
  );
}
