import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/icons';
import type { NavItem } from './nav-items';

const PRIMARY_COUNT = 4;

/**
 * Whether the focus or a press went out of the bar to the page. A dialog opened from the sheet
 * (Logout asks first) is not the page: the sheet stays behind it, and its button gets the focus back.
 */
const leftFor = (bar: HTMLElement | null, target: EventTarget | null) =>
  target instanceof Element && !bar?.contains(target) && !target.closest('dialog');

/**
 * §2 bottom bar (≤ 991 px). Nine entries do not fit a phone's width at a readable size, so the
 * first four stay on the bar and the rest (and sign-out) open from "More".
 */
export function BottomBar({ items, active, onSignOut }: { items: NavItem[]; active?: string; onSignOut: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navRef = useRef<HTMLElement>(null);
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
    // A tap or click anywhere else closes it too, as the focus leaving it does (onBlur below): left
    // open, the sheet covered the screen the user had gone back to. On the bar (More itself) it is
    // More's own toggle that answers.
    const onPointerDown = (event: PointerEvent) => {
      if (leftFor(navRef.current, event.target)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [open]);

  return (
    <nav
      ref={navRef}
      className="bottom-bar"
      aria-label={t('nav.main')}
      // The focus gone out of the bar (Shift+Tab from the sheet to the page, a screen reader moved
      // on): the sheet closes, not left open over the page the user is in. Only for focus that went
      // somewhere: none (the window left for another app, a tap on no control) closes nothing here.
      onBlur={(event) => {
        if (open && leftFor(event.currentTarget, event.relatedTarget)) setOpen(false);
      }}
    >
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
