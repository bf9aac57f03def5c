// The layer rules of ARCHITECTURE.md, enforced: which folder of src/ may import which. Every
// arrow the architecture forbids is a zone below, so a violation fails `npm run lint` (and so
// `npm test`) with the rule it breaks. The database packages are storage's alone.
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const databasePackages = ['kysely', 'kysely/*', 'pg', 'pg/*', 'better-sqlite3'];
const frameworkPackages = ['fastify', 'fastify/*', '@fastify/*'];

/** `….store.transaction(…)`: a transaction opened on the core's store itself. */
const coreTransactionOnStore = "CallExpression[callee.property.name='transaction'][callee.object.property.name='store']";

/** The composition roots: they wire every layer together, and nothing imports them. */
const roots = ['./src/app.ts', './src/server.ts'];

/**
 * What each folder must not import, and why. A folder may import what is not listed: the
 * protocol core nothing of ours; the services the core; the surfaces (http, web, the
 * platform wing) the services and the core; storage implements the ports of all of them.
 */
export const layers = [
  {
    folder: 'oauth',
    forbidden: ['config', 'services', 'http', 'web', 'platform', 'storage', 'cli', 'context.ts'],
    because: 'the protocol core depends on nothing of ours: it owns its ports (oauth/storage.ts, oauth/context.ts) and the rest adapts to it',
  },
  {
    folder: 'config',
    forbidden: ['services', 'http', 'web', 'platform', 'storage', 'cli', 'context.ts'],
    because: 'settings are read before anything else is built; they know the scope registry and nothing more',
  },
  {
    folder: 'services',
    forbidden: ['http', 'web', 'platform', 'storage', 'cli', 'context.ts'],
    because: 'the authorization server\'s services know no surface and no database: they declare the stores they need, and the platform wing builds on them, never the reverse',
  },
  {
    folder: 'http',
    forbidden: ['web', 'platform', 'storage', 'cli'],
    because: 'HTTP plumbing and the OAuth endpoints serve every surface and depend on none of them',
  },
  {
    folder: 'web',
    forbidden: ['platform', 'storage', 'cli'],
    because: 'the pages belong to the authorization server: they call its services, not the platform wing or the database',
  },
  {
    folder: 'platform',
    forbidden: ['web', 'storage', 'cli', 'context.ts'],
    because: 'the platform wing reaches the authorization server through its door (platform/authorization-server.ts) and is handed what it needs (platform/deps.ts): never its pages, the database or AppContext, which holds the core\'s own store',
  },
  {
    folder: 'storage',
    forbidden: ['http', 'web', 'cli', 'context.ts'],
    because: 'storage implements the ports the core, the services and the platform declare; it knows no surface',
  },
  {
    folder: 'storage/migrations',
    forbidden: ['oauth', 'services', 'platform', 'config', 'storage/stores', 'storage/repositories'],
    because: 'a migration imports nothing of the live code, so that what it does never changes once released',
  },
  {
    folder: 'cli',
    forbidden: ['http', 'web', 'platform', 'storage'],
    // The platform's features the operator records (a booking's provider records, phone calls)
    // are reached the way the routes reach them: through the resource's service.
    // It prints the addresses of the OAuth endpoints, named once in src/http/oauth/paths.ts.
    except: { platform: ['**/service.ts'], http: ['**/oauth/paths.ts'] },
    because: 'the CLI calls the same services as the pages and the routes (a platform resource\'s service.ts, never its routes or stores); only cli/runtime.ts, a composition root, opens storage',
  },
];

/**
 * The platform wing's one door: only this file of src/platform imports the authorization
 * server's folders; every other platform file imports what it needs from the door, so the
 * door lists the whole contract between the wings.
 */
export const platformDoor = {
  file: 'src/platform/authorization-server.ts',
  closed: ['oauth', 'services', 'http'],
  message: 'The platform reaches the authorization server only through src/platform/authorization-server.ts: import from there, and add the name there if it is missing (ARCHITECTURE.md).',
};

/**
 * The platform's HTTP adapters: the only platform files that may import Fastify. Everything
 * else of the platform (services, stores, views, rules) is plain TypeScript, called by the
 * routes and the MCP tools alike and tested in process (ARCHITECTURE.md, "The platform wing").
 */
export const platformAdapters = {
  files: [
    'src/platform/index.ts',
    'src/platform/registrar.ts',
    'src/platform/guard.ts',
    'src/platform/handler.ts',
    'src/platform/envelope.ts',
    'src/platform/openapi.ts',
    'src/platform/finite-numbers.ts',
    'src/platform/mcp/server.ts',
    'src/platform/mcp/tools.ts',
    'src/platform/*/routes.ts',
    'src/platform/*/*-routes.ts',
  ],
  message: 'Only the platform\'s HTTP adapters (routes, registrar, guard, handler, envelope, openapi, the MCP server) import Fastify: a service, a store or a view takes plain values (ARCHITECTURE.md).',
};

/**
 * A platform route maps the request to its service's input and renders what the service
 * returned: it never names `stores`, so every rule and store call of a resource is in its
 * service.ts, tested in process (ARCHITECTURE.md).
 */
export const platformRoutes = {
  files: ['src/platform/*/routes.ts', 'src/platform/*/*-routes.ts'],
  selector: "Identifier[name='stores']",
  message: 'A platform route does not touch stores: call the resource\'s service (src/platform/<resource>/service.ts), which holds its rules and store calls (ARCHITECTURE.md).',
};

/** The import rule of a group of files: each pattern with the words that say why it is refused. */
const refusedImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const databaseOnlyInStorage = { group: databasePackages, message: 'Only src/storage imports a database package: declare a store interface in your area and implement it in src/storage/stores.' };
const throughTheDoor = { group: platformDoor.closed.map((folder) => `**/${folder}/**`), message: platformDoor.message };

const zones = layers.flatMap(({ folder, forbidden, except = {}, because }) => [
  ...forbidden.map((from) => ({
    target: `./src/${folder}`,
    // A folder with exceptions is named as a glob, which the plugin requires of their patterns.
    ...(except[from] ? { from: `./src/${from}/**/*`, except: except[from] } : { from: `./src/${from}` }),
    message: `src/${folder} must not import src/${from}: ${because} (ARCHITECTURE.md).`,
  })),
  { target: `./src/${folder}`, from: roots, message: `src/${folder} must not import a composition root (app.ts, server.ts): they import it.` },
]);

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-output/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      ...refusedImports(databaseOnlyInStorage),
    },
  },
  {
    // The core and the services know no framework (ARCHITECTURE.md#core-knows-no-framework).
    files: ['src/oauth/**/*.ts', 'src/services/**/*.ts', 'src/config/**/*.ts'],
    rules: refusedImports(databaseOnlyInStorage, { group: frameworkPackages, message: 'The protocol core and the services know no HTTP framework: the surfaces (src/http, src/web, src/platform) adapt them.' }),
  },
  {
    files: ['src/platform/**/*.ts'],
    ignores: [platformDoor.file],
    rules: refusedImports(databaseOnlyInStorage, throughTheDoor),
  },
  {
    files: ['src/platform/**/*.ts'],
    ignores: [platformDoor.file, ...platformAdapters.files],
    rules: refusedImports(databaseOnlyInStorage, throughTheDoor, { group: frameworkPackages, message: platformAdapters.message }),
  },
  {
    files: platformRoutes.files,
    rules: { 'no-restricted-syntax': ['error', { selector: platformRoutes.selector, message: platformRoutes.message }] },
  },
  {
    files: ['src/storage/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The core tells what it did once committed (src/oauth/events.ts): a transaction opened
    // on the store directly would write audit events nobody counts.
    files: ['src/oauth/**/*.ts'],
    ignores: ['src/oauth/events.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: coreTransactionOnStore, message: 'The core runs its transactions through reportingTransaction (src/oauth/events.ts), so their audit events are counted once committed.' },
      ],
    },
  },
  {
    // Composition roots: they wire storage to the surfaces.
    files: ['src/cli/runtime.ts', 'src/cli/program.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
