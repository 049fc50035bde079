// ESLint: the recommended JavaScript and typescript-eslint rules over the sources, tests and benchmarks.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '**/node_modules/', 'src/http/openapi-types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Terminal escapes and control characters are what the shell analyzer and the terminal dialog work on.
      'no-control-regex': 'off',
    },
  },
  // The review page's scripts run in the browser.
  { files: ['src/http/review/assets/**/*.js'], languageOptions: { sourceType: 'module', globals: { ...globals.browser } } },
  // CommonJS files; bin/toolgate.js is one too (bin/package.json), so the hook never starts the ES module loader.
  {
    files: ['**/*.cjs', 'bin/toolgate.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Tests read untyped JSON bodies.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
