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

/** A count being worked on (src/app/first-screen.ts loads its screen at a start there too). */
export const COUNT_PATH = /^\/mechanic-view\/[^/]+\/?$/;

export const FIRST_WAVE_PAGES: readonly FirstWavePage[] = [
  // Often opened offline in a basement: its screen and the device database.
  { file: 'count.html', path: COUNT_PATH, screens: ['features/stock-count/screens/mechanic-view-page.tsx'] },
  // Every path but `/`.
  { file: 'app.html', path: /^\/./, screens: [] },
];

/** The page for a navigation to `pathname`, among the pages the build has. */
export function pageFor(pathname: string, has: (file: string) => boolean): string {
  return FIRST_WAVE_PAGES.find((page) => page.path.test(pathname) && has(page.file))?.file ?? 'index.html';
}
