/**
 * The navigation entry "Requests", apart from the request pages so that the app shell does not
 * load them until they are opened (they are a lazily loaded chunk). Members of the firm see it;
 * guests never do (the navigation leaves it out for them).
 */
import { InboxOutlined } from '@ant-design/icons';
import { NavLink } from 'react-router';
import { REQUESTS_LABEL, REQUESTS_ROUTE } from './requestParts';

/** The navigation entry, highlighted on /requests and every request's page. */
export function RequestsNavItem() {
  return (
    <li>
      <NavLink
        to={REQUESTS_ROUTE}
        aria-label={REQUESTS_LABEL}
        className={({ isActive }) => (isActive ? 'app-nav-link active' : 'app-nav-link')}
      >
        <InboxOutlined aria-hidden />
        <span>{REQUESTS_LABEL}</span>
      </NavLink>
    </li>
  );
}
