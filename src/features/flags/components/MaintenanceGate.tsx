/**
 * Maintenance mode in the client: while the maintenanceMode flag is on, a user who is not
 * an administrator of the current firm database sees the maintenance page instead of the app (the
 * API refuses their changes anyway); an administrator works as usual under a banner.
 */
import { Alert, Result } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LOGOUT_ROUTE } from '@common/constants';
import { MESSAGES } from '@common/messages';
import { useAppSelector } from '@src/store/hooks';
import { selectIsAdmin } from '@src/features/session/sessionSelectors';
import { selectMaintenanceMode } from '../flagsSelectors';
import './maintenance.css';

/** The page non-administrators see during maintenance, with a Sign out link. */
function MaintenancePage() {
  return (
    <main className="full-page-center">
      <Result
        status="warning"
        title={MESSAGES.maintenanceTitle}
        subTitle={MESSAGES.maintenanceText}
        extra={<Link to={LOGOUT_ROUTE}>Sign out</Link>}
      />
    </main>
  );
}

/** Props of {@link MaintenanceGate}. */
export interface MaintenanceGateProps {
  children: ReactNode;
}

/** Renders its children, or the maintenance page, or its children under a banner for admins. */
export function MaintenanceGate({ children }: MaintenanceGateProps) {
  const maintenance = useAppSelector(selectMaintenanceMode);
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!maintenance) return <>{children}</>;
  if (!isAdmin) return <MaintenancePage />;
  return (
    <div className="maintenance-frame">
      <Alert banner type="warning" showIcon title={MESSAGES.maintenanceAdminBanner} />
      <div className="maintenance-frame-body">{children}</div>
    </div>
  );
}
