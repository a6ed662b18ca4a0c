/**
 * The page a navigation gets (#22): the server and the service worker answer `/` with index.html
 * (the landing page of a signed-out start, src/main.tsx), and every other path with a page that
 * names in itself (modulepreload) the files a start there loads: the app chunk and the English
 * texts, and for a screen a start often opens, that screen's chunk (vite.config.ts `firstWavePages`
 * writes them). The first page whose path matches is taken; a build without the page (built before
 * it, or elsewhere) falls back to the next one, and to index.html.
 */
export interface FirstWavePage {
  /** The file the build writes, beside index.html. */
  file: string;
  /** The paths it is for (pathname only). */
  path: RegExp;
  /** The screen modules, relative to src/, whose chunks it names besides the app's. */
  screens: string[];
}

export const FIRST_WAVE_PAGES: readonly FirstWavePage[] = [
  // A count being worked on, often opened offline in a basement: its screen and the device database.
  { file: 'count.html', path: /^\/mechanic-view\/[^/]+\/?$/, screens: ['features/stock-count/screens/mechanic-view-page.tsx'] },
  { file: 'app.html', path: /^\/./, screens: [] },
];

/** The page for a navigation to `pathname`, among the pages the build has. */
export function pageFor(pathname: string, has: (file: string) => boolean): string {
  return (pathname === '/' ? undefined : FIRST_WAVE_PAGES.find((page) => page.path.test(pathname) && has(page.file))?.file) ?? 'index.html';
}
