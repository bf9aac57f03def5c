// The layer rules of ARCHITECTURE.md are lint rules (eslint.config.js), and lint runs in
// `npm test`. These tests show that each rule can fail: for every folder of src/ and every
// folder it must not import, an import of a real module across that line is refused.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the ESLint config is plain JavaScript, without types.
import { layers, platformAdapters, platformDoor, platformRoutes } from '../../eslint.config.js';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** A real module of `target` (a folder of src/, or one file), to import across the line. */
function moduleOf(target: string): string {
  const path = join(root, 'src', target);
  if (!statSync(path).isDirectory()) return path;
  const file = readdirSync(path).find((f) => f.endsWith('.ts'));
  return join(path, file!);
}

const cases = (layers as Array<{ folder: string; forbidden: string[] }>).flatMap(({ folder, forbidden }) => forbidden.map((from) => [folder, from] as const));

describe('the layer rules of ARCHITECTURE.md', () => {
  it.each(cases)('src/%s importing src/%s fails lint', async (folder, from) => {
    const importer = join(root, 'src', folder, 'layer-rule-probe.ts');
    const specifier = relative(join(root, 'src', folder), moduleOf(from)).replaceAll('\\', '/');
    const [result] = await eslint.lintText(`import '${specifier.startsWith('.') ? specifier : `./${specifier}`}';\n`, { filePath: importer });
    const refusals = result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths');
    expect(refusals.map((m) => m.message).join('\n')).toContain(`src/${folder} must not import src/${from}`);
  });

  const door = platformDoor as { file: string; closed: string[] };
  const probe = (importer: string, from: string) => {
    const specifier = relative(join(root, importer, '..'), moduleOf(from)).replaceAll('\\', '/');
    return eslint.lintText(`import '${specifier}';\n`, { filePath: join(root, importer) });
  };

  it.each(door.closed)('a platform resource importing src/%s directly fails lint: it goes through the door', async (from) => {
    const [result] = await probe('src/platform/bookings/layer-rule-probe.ts', from);
    expect(result!.messages.map((m) => m.message).join('\n')).toContain('only through src/platform/authorization-server.ts');
  });

  it.each(door.closed)('the door itself (src/platform/authorization-server.ts) may import src/%s', async (from) => {
    const [result] = await probe(door.file, from);
    expect(result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'import-x/no-restricted-paths')).toEqual([]);
  });

  it('the CLI may import a platform resource\'s service, as the routes do, and nothing else of the platform', async () => {
    const refusals = async (target: string) => {
      const [result] = await eslint.lintText(`import '../platform/${target}';\n`, { filePath: join(root, 'src', 'cli', 'layer-rule-probe.ts') });
      return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
    };
    expect(await refusals('schedules/service.ts')).toEqual([]);
    expect(await refusals('schedules/routes.ts')).toEqual([expect.stringContaining('src/cli must not import src/platform')]);
    expect(await refusals('schedules/store.ts')).toEqual([expect.stringContaining('src/cli must not import src/platform')]);
  });

  const fastifyImport = `import type { FastifyRequest } from 'fastify';\nexport type Seen = FastifyRequest;\n`;
  const frameworkRefusals = async (file: string) => {
    const [result] = await eslint.lintText(fastifyImport, { filePath: join(root, file) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it.each(['src/platform/bookings/service.ts', 'src/platform/bookings/views.ts', 'src/platform/schedules/store.ts', 'src/platform/stores.ts'])(
    'a platform file that is no HTTP adapter (%s) importing Fastify fails lint',
    async (file) => {
      expect(await frameworkRefusals(file)).toEqual([expect.stringContaining((platformAdapters as { message: string }).message)]);
    },
  );

  it.each(['src/platform/bookings/routes.ts', 'src/platform/bookings/attendee-routes.ts', 'src/platform/registrar.ts', 'src/platform/mcp/server.ts'])(
    'an HTTP adapter of the platform (%s) may import Fastify',
    async (file) => {
      expect(await frameworkRefusals(file)).toEqual([]);
    },
  );

  const storeReads = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, file) });
    // Each naming is one message; the probes name stores more than once.
    return [...new Set(result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message))];
  };
  const routesMessage = (platformRoutes as { message: string }).message;

  it.each([
    ['a store read', `export const h = (deps: { services: { stores: { api: { schedules: { list(): unknown } } } } }) => deps.services.stores.api.schedules.list();\n`],
    ['the stores taken apart', `export const h = ({ stores }: { stores: unknown }) => stores;\n`],
  ])('a platform route file naming stores (%s) fails lint: it calls its service', async (_, code) => {
    expect(await storeReads('src/platform/schedules/routes.ts', code)).toEqual([routesMessage]);
    expect(await storeReads('src/platform/webhooks/event-type-routes.ts', code)).toEqual([routesMessage]);
  });

  it('a platform service may name stores', async () => {
    expect(await storeReads('src/platform/schedules/service.ts', `export const h = (ctx: { stores: unknown }) => ctx.stores;\n`)).toEqual([]);
  });

  it('the core opening a transaction on its store, past reportingTransaction, fails lint (its audit events would go uncounted)', async () => {
    const code = `export const revoke = (ctx: { store: { transaction(fn: () => Promise<void>): Promise<void> } }) => ctx.store.transaction(async () => undefined);\n`;
    const [result] = await eslint.lintText(code, { filePath: join(root, 'src', 'oauth', 'layer-rule-probe.ts') });
    expect(result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)).toEqual([expect.stringContaining('reportingTransaction')]);
  });

});
