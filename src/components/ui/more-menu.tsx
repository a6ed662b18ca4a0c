/**
 * A "⋯" button that opens a menu of secondary actions (#21; WAI-ARIA menu button): the row keeps
 * its primary action in sight and the others one tap away instead of wrapping over several lines.
 * Keyboard: Enter, Space or ArrowDown open it on the first item, ArrowUp on the last; arrows,
 * Home and End move; Escape closes it and focus returns to the button; Tab closes it. A tap
 * outside, scrolling the page (so that the button moves) or resizing the window closes it too.
 * The list is placed with fixed coordinates under the button (above it when there is no room
 * below), so a table's scroll area cannot clip it.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from './icons';
import './popover.css';
import './more-menu.css';

export interface MoreMenuItem {
  key: string;
  label: string;
  /** A fuller name for assistive technology (e.g. the row's subject). */
  ariaLabel?: string;
  danger?: boolean;
  onSelect: () => void;
}

type Place = { top?: number; bottom?: number; right: number };

export function MoreMenu({ label, items, className = '', disabled = false }: { label: string; items: MoreMenuItem[]; className?: string; disabled?: boolean }) {
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<Place | null>(null);
  const [initial, setInitial] = useState<'first' | 'last'>('first');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);

  const itemsOf = () => Array.from(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = itemsOf();
    if (all.length === 0) return;
    all[(index + all.length) % all.length]?.focus({ preventScroll: true });
  };

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    setPlace(null);
    if (returnFocus) buttonRef.current?.focus({ preventScroll: true });
  }, []);

  // Place the list once it is rendered and its height is known.
  useLayoutEffect(() => {
    if (!open) return;
    const button = buttonRef.current;
    const menu = menuRef.current;
    if (!button || !menu) return;
    const rect = button.getBoundingClientRect();
    const height = menu.offsetHeight;
    const bottomBar = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--bottom-bar')) || 0;
    const right = Math.max(8, window.innerWidth - rect.right);
    const roomBelow = window.innerHeight - bottomBar - rect.bottom;
    setPlace(roomBelow >= height + 8 || rect.top < height + 8 ? { top: rect.bottom + 4, right } : { bottom: window.innerHeight - rect.top + 4, right });
  }, [open]);

  // Once placed (once per opening), focus the first or the last item.
  useEffect(() => {
    if (!open || !place) return;
    const all = menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]');
    if (all && all.length > 0) all[initial === 'first' ? 0 : all.length - 1]?.focus({ preventScroll: true });
  }, [open, place, initial]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (menuRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      close(false);
    };
    // Where the button was when the menu opened: a scroll event of a scroll that ended before the
    // tap (delivered a frame later, or a list drawn again by a refetch) leaves it there and must
    // not close the menu just opened; a scroll that moves the button away does.
    const openedAt = buttonRef.current?.getBoundingClientRect();
    const onScroll = (event: Event) => {
      if (menuRef.current?.contains(event.target as Node)) return;
      const now = buttonRef.current?.getBoundingClientRect();
      if (openedAt && now && Math.abs(now.top - openedAt.top) < 2 && Math.abs(now.left - openedAt.left) < 2) return;
      close(false);
    };
    const onResize = () => close(false);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onResize);
    };
  }, [open, close]);

  const openAt = (where: 'first' | 'last') => {
    setInitial(where);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const all = itemsOf();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusItem(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusItem(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusItem(0);
        break;
      case 'End':
        event.preventDefault();
        focusItem(all.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        close(true);
        break;
      case 'Tab':
        close(false);
        break;
      default:
    }
  };

  const select = (item: MoreMenuItem) => {
    // Focus goes back to the button first, so a dialog the action opens returns it there.
    close(true);
    item.onSelect();
  };

  if (items.length === 0) return null;
  return (
    <div className={`more-menu ${className}`.trim()}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="button small more-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        <Icon name="more" size={20} />
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          className="popover more-menu-list"
          style={place ? { top: place.top, bottom: place.bottom, right: place.right } : { visibility: 'hidden' }}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <li key={item.key} role="none">
              <button type="button" role="menuitem" tabIndex={-1} className={`more-menu-item${item.danger ? ' danger' : ''}`} aria-label={item.ariaLabel} onClick={() => select(item)}>
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
