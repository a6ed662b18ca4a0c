import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/icons';
import type { NavItem } from './nav-items';

export function SideBar({ items, active, onSignOut }: { items: NavItem[]; active?: string; onSignOut: () => void }) {
  const { t } = useTranslation();
  return (
    <nav className="side-bar" aria-label={t('nav.main')}>
      <div className="side-bar-brand" aria-hidden="true">
        <img src="/favicon.svg" alt="" width={40} height={40} />
      </div>
      <ul className="side-bar-list">
        {items.map((item) => (
          <li key={item.entry}>
            <NavLink
              to={item.to}
              className={() => `nav-link${active === item.entry ? ' active' : ''}`}
              aria-current={active === item.entry ? 'page' : undefined}
            >
              <Icon name={item.entry} />
              <span>{t(item.labelKey)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
      <button type="button" className="nav-link side-bar-logout" onClick={onSignOut}>
        <Icon name="logout" />
        <span>{t('nav.logout')}</span>
      </button>
    </nav>
  );
}
