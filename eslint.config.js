// The house rules as code (docs/architecture.md, "The rules a linter keeps"). `npm run lint` runs this and
// dependency-cruiser (.dependency-cruiser.cjs: no import cycle, type-only imports included).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** SQL is written in files named *Queries.ts (and the migrations), nowhere else. */
const SQL_START = String.raw`^\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WITH\s+\w+(\s*\([^)]*\))?\s+AS|CREATE\s|ALTER\s|DROP\s|TRUNCATE\s|LISTEN\s|NOTIFY\s|VACUUM|ANALYZE)`;
const noSql = (what) => ({
  selector: what === 'Literal' ? `Literal[value=/${SQL_START}/]` : `${what}[value.raw=/${SQL_START}/]`,
  message: 'SQL belongs in a *Queries.ts file (docs/architecture.md, "Module shape").',
});

/** Console layers: views -> data layer -> api -> domain, never back up. */
const VIEWS = ['./src/pages', './src/resources', './src/layout'];
const SHELL = ['./src/App.tsx', './src/Root.tsx', './src/main.tsx', './src/routes.tsx', './src/navigation', './src/authProvider.ts'];
const zones = [
  { target: './src/domain', from: ['./src', './server'], except: ['./domain'], message: 'src/domain imports nothing of ours.' },
  {
    target: './server',
    from: './src',
    // The resources declared as data are read by server/resources/declaredResources.ts (docs/extending.md).
    except: ['./domain', './resources/extensions.ts'],
    message: 'The server may import src/domain and nothing else of src/ (and the list of declared resources).',
  },
  { target: './src', from: './server', message: 'The console never imports the server.' },
  {
    target: './src/api',
    from: './src',
    except: ['./api', './domain', './config.ts'],
    message: 'src/api (the HTTP client) imports only src/domain and the runtime config.',
  },
  {
    target: './src/data',
    from: './src',
    except: ['./data', './api', './domain', './config.ts'],
    message: 'The data layer imports only src/api, src/domain and the runtime config.',
  },
  { target: './src/layout', from: './src/pages', message: 'layout/ does not import pages/.' },
  {
    target: ['./src/state', './src/format', './src/i18n', './src/theme', './src/map', './src/live'],
    from: [...VIEWS, ...SHELL],
    except: [],
    message: 'Shared console parts do not import views (pages, resources, layout) or the app shell.',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'public/**', '**/*.mjs', '**/*.cjs'],
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-syntax': ['error', noSql('Literal'), noSql('TemplateElement')],
      // A file over 300 lines holds several ideas: split it, or say at its top why it does not
      // (`/* eslint-disable max-lines -- why */`).
      'max-lines': ['error', { max: 300 }],
      // A variable a closure reads before its one assignment stays `let` (the broker in server/link/embeddedBroker.ts).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // A leading underscore marks what is deliberately unused (a destructured-away field, an unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read untyped JSON answers freely.
    files: ['tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'max-lines': 'off' },
  },
  {
    // Migrations, the query files and the database adapter are where SQL lives.
    files: ['**/*Queries.ts', 'server/db/**', 'tests/**', 'bench/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // A definition is data the server reads too (docs/extending.md): views and buttons come through lazyView.
    files: ['src/resources/*/definition.ts', 'tests/fixtures/extension/*/definition.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react-admin|ra-[a-z-]+|@mui/material(/.*)?|leaflet)$|\\.tsx$|(Button|List|Page|Dialog|Actions)$|(?<!lazy)View$',
              message: 'A definition imports no component but its icon; load views with lazyView (docs/extending.md).',
            },
          ],
        },
      ],
    },
  },
);
