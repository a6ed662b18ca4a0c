/**
 * The groups of en-US.json the first screen needs (landing, welcome, expired, loading, shell).
 * They are bundled with the app; the rest of the English texts load as a separate chunk after
 * start, before any app screen renders (see src/lib/i18n.ts), so adding a feature's texts never
 * grows the first screen.
 */
export const CORE_GROUPS = ['app', 'common', 'loading', 'landing', 'welcome', 'expired', 'guard', 'shell', 'nav', 'routes', 'update', 'chunkLoad'] as const;
