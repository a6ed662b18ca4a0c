import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlib } from 'node:zlib';
import { CORE_GROUPS } from './locales/core-groups';
import { FIRST_WAVE_PAGES } from './src/contract/pages';

/** API paths the service worker must never answer with index.html (ARCHITECTURE §3). */
const API_PATHS = ['/user_api/', '/parts/', '/api/', '/auth/', '/docs', '/healthz'];

const LOCALE_FILES = ['cs-CZ', 'de-DE', 'en-US', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'];

/**
 * The first screen's texts (CORE_GROUPS) straight from locales/*.json, the one source of the texts:
 * `virtual:en-us-core` (bundled with the app: English is the fallback of every locale) and
 * `virtual:locale-cores`, a loader per other locale, each its own small chunk, so the landing page
 * of a German user loads 2 KB of German rather than the whole 13 KB locale (#22);
 * `virtual:chunk-load-texts`, the `chunkLoad` group of every locale, for the page shown when the
 * app's own chunks cannot load (src/app/start-failure.ts).
 */
function localeCores(): Plugin {
  const english = 'virtual:en-us-core';
  const index = 'virtual:locale-cores';
  const one = 'virtual:locale-core/';
  const chunkTexts = 'virtual:chunk-load-texts';
  const fileOf = (locale: string) => new URL(`./locales/${locale}.json`, import.meta.url);
  return {
    name: 'partstrack-locale-cores',
    resolveId: (source) => (source === english || source === index || source === chunkTexts || source.startsWith(one) ? `\0${source}` : undefined),
    load(loaded) {
      if (!loaded.startsWith('\0virtual:')) return undefined;
      const id = loaded.slice(1);
      if (id === chunkTexts) {
        const texts = LOCALE_FILES.map((locale) => [locale, (JSON.parse(readFileSync(fileOf(locale), 'utf8')) as Record<string, unknown>).chunkLoad]);
        LOCALE_FILES.forEach((locale) => this.addWatchFile(fileOf(locale).pathname));
        return `export default ${JSON.stringify(Object.fromEntries(texts))};`;
      }
      if (id === index) {
        const entries = LOCALE_FILES.filter((locale) => locale !== 'en-US').map((locale) => `'${locale}': () => import('${one}${locale}')`);
        return `export default {${entries.join(',')}};`;
      }
      const locale = id === english ? 'en-US' : id.startsWith(one) ? id.slice(one.length) : null;
      if (!locale || !LOCALE_FILES.includes(locale)) return undefined;
      this.addWatchFile(fileOf(locale).pathname);
      const all = JSON.parse(readFileSync(fileOf(locale), 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(Object.fromEntries(CORE_GROUPS.map((group) => [group, all[group]])))};`;
    },
  };
}

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

/** Every module `roots` import statically, however deep (the code that must run before they can). */
function staticClosure(roots: string[], info: (id: string) => { importedIds: readonly string[] } | null): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * One chunk for the signed-in start (#22). Left to itself the bundler cuts the app's shared code
 * into ~40 files of 1–5 KB; over HTTP/1.1 on slow 4G (6 connections, 150 ms a round trip) that is
 * 7–8 round trips in a row before the first screen can render, and as many service-worker answers
 * offline. Everything the app's start, the guard + shell and the home screen (the status monitor,
 * src/app/first-screen.ts) import statically goes into `app`, except what
 * the landing page imports (React, i18next, the session, ...), which stays where the landing page
 * loads it, so the signed-out first screen is not made heavier. What the landing page imports
 * beyond the entry (react-dom, i18next, the landing screen, the shared UI bits) is one chunk,
 * `base`, which every start loads: left apart it was 7 files of 1–55 KB, each a request of its own
 * on the 6 connections of HTTP/1.1 (Lighthouse's simulated LCP of the signed-in monitor: 2.4–2.5 s
 * → 2.3 s; the landing page: 11 scripts and 100.9 KB → 4 scripts and 88.9 KB). Other screens keep
 * their own chunks (loaded when opened; a count's screen adds its own few files to a start on it),
 * and so do the locales.
 */
function firstWaveChunk() {
  let chunkOf: Map<string, 'app' | 'base'> | null = null;
  return (id: string, ctx: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }): string | null => {
    if (!chunkOf) {
      const info = (moduleId: string) => ctx.getModuleInfo(moduleId);
      const entry = staticClosure([source('main.tsx')], info);
      const landing = staticClosure([source('main.tsx'), source('app/start-landing.tsx')], info);
      const app = staticClosure(
        [
          'app/start-app.tsx',
          'app/guarded-shell.tsx',
          'lib/dates.ts',
          'features/tracking/screens/status-monitor-page.tsx',
          'features/notifications/components/notification-tabs.tsx',
        ].map(source),
        info,
      );
      chunkOf = new Map<string, 'app' | 'base'>([
        ...[...landing].filter((moduleId) => !entry.has(moduleId)).map((moduleId) => [moduleId, 'base'] as const),
        ...[...app].filter((moduleId) => !landing.has(moduleId)).map((moduleId) => [moduleId, 'app'] as const),
      ]);
    }
    return chunkOf.get(id) ?? null;
  };
}

/**
 * The pages that name a start's first wave in themselves (#22, src/contract/pages.ts): index.html
 * plus `modulepreload` of the `app` chunk with the chunks it imports, its stylesheets, the English
 * texts (the fallback of every locale) and the page's screens' chunks with theirs. Every start on a
 * path other than `/` loads these files (src/main.tsx, src/app/first-screen.ts); named by the entry
 * they were a second wave (the page, then the entry, then these), named by the page they load
 * alongside the entry: on slow 4G one round trip and the entry's download less before the first
 * screen, and offline one wave of answers from the service worker. `/` (the landing page of a
 * signed-out start) keeps index.html and loads none of them.
 */
function firstWavePages(): Plugin {
  return {
    name: 'partstrack-first-wave-pages',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const chunkOf = (test: (chunk: (typeof chunks)[number]) => boolean, what: string) => {
        const found = chunks.find(test);
        if (!found) throw new Error(`first-wave pages: no chunk for ${what} in the build`);
        return found.fileName;
      };
      const app = chunkOf((chunk) => chunk.name === 'app', 'the app');
      const english = chunkOf((chunk) => chunk.facadeModuleId?.endsWith('/locales/en-US.json') ?? false, 'the English texts');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const template = String(html.source);
      for (const page of FIRST_WAVE_PAGES) {
        const screens = page.screens.map((screen) => chunkOf((chunk) => chunk.moduleIds.includes(source(screen)), screen));
        // The same closure as the modules' (`staticClosure`), over the chunks' static imports.
        const wave = staticClosure([app, english, ...screens], (fileName) => ({ importedIds: byName.get(fileName)?.imports ?? [] }));
        const css = new Set([...wave].flatMap((fileName) => [...(byName.get(fileName)?.viteMetadata?.importedCss ?? [])]));
        const named = (fileName: string) => template.includes(`/${fileName}"`);
        const links = [
          ...[...wave].filter((fileName) => !named(fileName)).map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`),
          ...[...css].filter((fileName) => !named(fileName)).map((fileName) => `<link rel="stylesheet" crossorigin href="/${fileName}">`),
        ];
        this.emitFile({ type: 'asset', fileName: page.file, source: template.replace('</head>', `\n    ${links.join('\n    ')}\n  </head>`) });
      }
    },
  };
}

export default defineConfig({
  plugins: [
    localeCores(),
    firstWavePages(),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'PartsTrack — spare parts and stock for elevator service',
        short_name: 'PartsTrack',
        description: 'Track spare-part orders and parcels, see stock and run stock counts, online or offline.',
        // The installed app opens on the home screen itself (src/lib/paths.ts HOME_PATH): its
        // page names the start's files and the entry asks for the first list at once (#22). From
        // `/` a signed-in start loaded the app in a second wave, then the landing screen's chunk,
        // only to be sent on to the home screen. A signed-out start there is sent to the landing
        // page. `id` keeps the identity that installs made with `/` as start_url have.
        id: '/',
        start_url: '/status-monitor',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0b3d91',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The shell, every lazy screen and every locale chunk, so the app starts offline in any language.
        // wasm: the barcode reader's ZXing module (#17), so the camera scanner reads codes offline.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm}'],
        // Sign-in SDKs are big and useless offline (signing in needs the network): not precached.
        globIgnores: ['**/microsoft-*.js', '**/google-*.js', '**/index-*.js.map'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    // Every text file also as .br (brotli at its best quality) and .gz, made once at build time;
    // the server sends them as they are (server/plugins/static.ts, `preCompressed`). Compressing
    // on each request could afford brotli's quality 4 only: 14% more bytes on a phone's first load
    // over weak mobile data (#22).
    compression({
      include: /\.(js|mjs|css|html|svg|webmanifest|json|wasm)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  define: {
    __API_PATHS__: JSON.stringify(API_PATHS),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        codeSplitting: {
          // A captured module's dependencies stay where they are: pulling React into `app` would
          // make the landing page load all of it.
          includeDependenciesRecursively: false,
          groups: [{ name: firstWaveChunk() }],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API_PATHS.map((path) => [path, 'http://localhost:8080'])),
  },
});
