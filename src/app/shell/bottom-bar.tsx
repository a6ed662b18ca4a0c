import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/icons';
import type { NavItem } from './nav-items';

const PRIMARY_COUNT = 4;

/**
 * §2 bottom bar (≤ 991 px). Nine entries do not fit a phone's width at a readable size, so the
 * first four stay on the bar and the rest (and sign-out) open from "More".
 */
export function BottomBar({ items, active, onSignOut }: { items: NavItem[]; active?: string; onSignOut: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const menuRef = useRef<HTMLDivElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const fits = items.length <= PRIMARY_COUNT + 1;
  const primary = fits ? items : items.slice(0, PRIMARY_COUNT);
  const rest = fits ? [] : items.slice(PRIMARY_COUNT);
  const restActive = rest.some((item) => item.entry === active);

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    // Escape closes the menu and gives the focus back to "More" (it was left on a link that went).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      moreRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <nav className="bottom-bar" aria-label={t('nav.main')}>
      {open && (
        <div className="more-sheet" ref={menuRef} id="more-sheet">
          {rest.map((item) => (
            <NavLink key={item.entry} to={item.to} className={`more-link${active === item.entry ? ' active' : ''}`}>
              <Icon name={item.entry} />
              <span>{t(item.labelKey)}</span>
            </NavLink>
          ))}
          <button type="button" className="more-link" onClick={onSignOut}>
            <Icon name="logout" />
            <span>{t('nav.logout')}</span>
          </button>
        </div>
      )}
      <ul className="bottom-bar-list">
        {primary.map((item) => (
          <li key={item.entry}>
            <NavLink
              to={item.to}
              className={() => `bottom-link${active === item.entry ? ' active' : ''}`}
              aria-current={active === item.entry ? 'page' : undefined}
            >
              <Icon name={item.entry} />
              <span>{t(item.labelKey)}</span>
            </NavLink>
          </li>
        ))}
        <li>
          <button
            ref={moreRef}
            type="button"
            className={`bottom-link${restActive || open ? ' active' : ''}`}
            aria-expanded={open}
            aria-controls="more-sheet"
            onClick={() => setOpen((value) => !value)}
          >
            <Icon name="more" />
            <span>{t('nav.more')}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
