// The one rule of issue "one door to the database" (ARCHITECTURE.md): only src/storage talks
// to a database package, and only the composition roots (app.ts, server.ts, cli/runtime.ts)
// wire storage to the surfaces. Every other area declares the store interface it needs.
import tseslint from 'typescript-eslint';

const databasePackages = ['kysely', 'kysely/*', 'pg', 'pg/*', 'better-sqlite3'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-output/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: databasePackages, message: 'Only src/storage imports a database package: declare a store interface in your area and implement it in src/storage/stores.' },
            { group: ['**/storage/*', '**/storage/**'], message: 'Reach the database through your area\'s store interface; only app.ts, server.ts and cli/runtime.ts wire storage.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/storage/**/*.ts', 'src/app.ts', 'src/server.ts', 'src/cli/runtime.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
