// Lint with zero warnings. The one-way imports of ARCHITECTURE §2 are enforced here:
// domain and contract import nothing of ours but each other; offline/lib/components may import
// them; features import those; app imports features; no feature imports another feature;
// server imports only src/domain and src/contract from src/. No module imports itself back
// through a cycle (import/no-cycle).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const group = (dirs, message) => ({ group: dirs, message });
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', 'data', 'test-results', 'playwright-report', 'server/db/migrations', 'tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // No import cycles among our own modules (packages are not followed). Resolved the way Vite
    // and tsc do here: relative specifiers without extension, .ts/.tsx first.
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      // Packages are never parsed: a cycle runs through our own files only.
      'import/ignore': ['node_modules'],
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/domain/**', 'src/contract/**'],
    rules: restrict([
      group(['**/app/**', '**/features/**', '**/components/**', '**/lib/**', '**/offline/**', '**/server/**', 'react', 'react-dom', 'dexie'], 'domain and contract stay pure: they import only each other.'),
    ]),
  },
  {
    files: ['src/lib/**', 'src/offline/**', 'src/components/**'],
    rules: restrict([group(['**/app/**', '**/features/**', '**/server/**'], 'lib, offline and components must not import app or features.')]),
  },
  // Every folder under src/features is a feature (the list cannot drift from the tree). Import
  // specifiers are matched as written, so a sibling feature is caught both as `…/features/x/…`
  // and as a relative climb (`../x/…`, `../../x/…`).
  ...FEATURES.map((feature) => {
    const others = FEATURES.filter((other) => other !== feature).map(escape).join('|');
    const message = 'no feature imports another feature: move shared code to lib, components or domain.';
    return {
      files: [`src/features/${feature}/**`],
      rules: restrict([
        group(['**/app/**', '**/server/**'], 'features must not import the app shell or the server.'),
        { regex: `(^|/)features/(?!${escape(feature)}/)`, message },
        { regex: `^(\\.\\./)+(${others})(/|$)`, message },
      ]),
    };
  }),
  {
    // Parse at the edge (#19): an answer is parsed with its contract schema, never cast.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='json'][typeArguments]",
          message: 'Parse the answer with its contract schema (schema.parse(await … .json())), do not cast it with .json<T>().',
        },
      ],
    },
  },
  {
    // Screens and components call the services through their feature's api/ files (bulletproof-react).
    files: ['src/features/*/screens/**', 'src/features/*/components/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='json'][typeArguments]",
          message: 'Parse the answer with its contract schema (schema.parse(await … .json())), do not cast it with .json<T>().',
        },
        {
          selector: "ImportDeclaration[source.value=/lib\\/api-client$/] ImportSpecifier[imported.name=/^(userApi|partsApi|stockApi)$/]",
          message: "Call the service from the feature's api/ folder (one file per endpoint), not from a screen or component.",
        },
      ],
    },
  },
  {
    // Command-line tools print to the terminal by design.
    files: ['scripts/**', 'server/db/seed-cli.ts', 'tests/bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // A regular expression on the specifier as written: the glob `**/src/!(domain|contract)/**`
    // it replaces never matched (no-restricted-imports' patterns have no extglobs).
    files: ['server/**'],
    rules: restrict([{ regex: '^(\\.{1,2}/)+(.*/)?src(/(?!(domain|contract)(/|$))|$)', message: 'server imports only src/domain and src/contract from src/.' }]),
  },
);
