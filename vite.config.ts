import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/** API paths the service worker must never answer with index.html (ARCHITECTURE §3). */
const API_PATHS = ['/user_api/', '/parts/', '/api/', '/auth/', '/docs', '/healthz'];

export default defineConfig({
  plugins: [
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
