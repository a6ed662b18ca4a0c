import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { CORE_GROUPS } from './locales/core-groups';

/** API paths the service worker must never answer with index.html (ARCHITECTURE §3). */
const API_PATHS = ['/user_api/', '/parts/', '/api/', '/auth/', '/docs', '/healthz'];

/** `virtual:en-us-core`: the CORE_GROUPS of locales/en-US.json, the one source of the texts. */
function englishCore(): Plugin {
  const id = 'virtual:en-us-core';
  const file = new URL('./locales/en-US.json', import.meta.url);
  return {
    name: 'partstrack-english-core',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(loaded) {
      if (loaded !== `\0${id}`) return undefined;
      this.addWatchFile(file.pathname);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(Object.fromEntries(CORE_GROUPS.map((group) => [group, all[group]])))};`;
    },
  };
}

export default defineConfig({
  plugins: [
    englishCore(),
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
        start_url: '/',
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
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Sign-in SDKs are big and useless offline (signing in needs the network): not precached.
        globIgnores: ['**/microsoft-*.js', '**/google-*.js', '**/index-*.js.map'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  define: {
    __API_PATHS__: JSON.stringify(API_PATHS),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: Object.fromEntries(API_PATHS.map((path) => [path, 'http://localhost:8080'])),
  },
});
