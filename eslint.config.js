import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.dependency-cruiser.cjs', 'dist/', 'data/', 'node_modules/', 'coverage/', 'test-results/', 'tmp/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules on the TypeScript the compiler checks (tsconfig.json): a promise nobody awaits
    // loses its rejection, so each one is awaited, returned, or marked `void` with a reason.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The dashboard's small browser script.
    files: ['public/**/*.js'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', navigator: 'readonly', setTimeout: 'readonly' } },
  },
  {
    // The embeddable <changelog-feed> web component, served as written.
    files: ['src/changelog/widget/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        ['document', 'location', 'customElements', 'HTMLElement', 'localStorage', 'URLSearchParams', 'fetch', 'CustomEvent', 'Intl'].map((g) => [g, 'readonly']),
      ),
    },
  },
);
