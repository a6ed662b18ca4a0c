/**
 * Light or dark theme (#21). By default the app follows the system setting (CSS
 * prefers-color-scheme); a choice made on the profile is kept on this device and written as
 * data-theme on <html>, which the stylesheet's tokens obey. Applied when this module loads, before
 * the first screen paints.
 */
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'theme';
const listeners = new Set<() => void>();

function read(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

let current: ThemeChoice = read();

export const THEME_COLORS = { light: '#0b3d91', dark: '#0c1220' } as const;
const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The colour of one theme-color meta. index.html has one per system scheme (its `media`), which the
 * browser picks from before any script runs; a choice made on the profile writes its colour into
 * both. A meta without `media` follows the system's scheme now.
 */
export function themeColor(choice: ThemeChoice, media: string | null, systemDark: boolean): string {
  const dark = choice === 'system' ? (media ? media.includes('dark') : systemDark) : choice === 'dark';
  return dark ? THEME_COLORS.dark : THEME_COLORS.light;
}

function apply(choice: ThemeChoice) {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  // The browser's own bars follow the theme too.
  const systemDark = Boolean(window.matchMedia?.(DARK_QUERY).matches);
  document.querySelectorAll('meta[name="theme-color"]').forEach((meta) => {
    meta.setAttribute('content', themeColor(choice, meta.getAttribute('media'), systemDark));
  });
}

apply(current);
// The system's scheme can change while the app is open (dark at sunset): the bars follow it when
// the app does.
if (typeof window !== 'undefined') {
  window.matchMedia?.(DARK_QUERY).addEventListener?.('change', () => {
    if (current === 'system') apply(current);
  });
}

export function setTheme(choice: ThemeChoice): void {
  current = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // No storage (private mode): the choice lasts for this page.
  }
  apply(choice);
  listeners.forEach((listener) => listener());
}

export function useTheme(): ThemeChoice {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
