import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexVariant } from './index-variants';

/** The benchmark plugin's name, model and route. */
export const PLUGIN_NAME = 'bench';
export const GROUP_VERSION = '/apis/bench.example.com/v1alpha1';
export const ITEMS_PATH = `${GROUP_VERSION}/items`;
export const PINGS_PATH = `${GROUP_VERSION}/pings`;
/** A route that reads the item of its name through `ctx.client` and answers it. */
export const READS_PATH = `${GROUP_VERSION}/reads`;
export const PLUGIN_PATH = `/apis/plugin.svc.run/v1alpha1/plugins/${PLUGIN_NAME}`;
/** The storage type of the plugin's model (its index builds are logged under it). */
export const ITEMS_TYPE = 'items.bench.example.com';

/**
 * The plugin's index.js: registers the Item model with `variant`'s indexes
 * and two routes: `GET …/pings/{name}` answering a small JSON object, and
 * `GET …/reads/{name}` answering the item of that name, read through `ctx.client`.
 */
function indexJs(variant: IndexVariant): string {
  return `module.exports = {
  async start(ctx) {
    await ctx.schemes.register(
      {
        group: 'bench.example.com', version: 'v1alpha1',
        names: { kind: 'Item', singular: 'item', plural: 'items' },
        schema: { type: 'object', properties: { spec: { type: 'object', properties: {
          name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, note: { type: 'string' },
        } } } },
      },
      ${variant.indexesSource},
    );
    ctx.routes.get('${PINGS_PATH}/{name}', (req) => ({ pong: true, name: req.params.name }));
    const items = { group: 'bench.example.com', version: 'v1alpha1', plural: 'items' };
    ctx.routes.get('${READS_PATH}/{name}', (req) => ctx.client.get(items, req.params.name));
  },
};
`;
}

/**
 * Writes (or rewrites) the benchmark plugin's folder in `pluginsDir`:
 * plugin.yaml at `version` and an index.js declaring `variant`'s indexes.
 *
 * @example writeBenchPlugin(join(session.dir, 'plugins'), '1.1.0', PATH_INDEXES)
 */
export function writeBenchPlugin(pluginsDir: string, version: string, variant: IndexVariant): void {
  const dir = join(pluginsDir, PLUGIN_NAME);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'plugin.yaml'),
    `apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: ${PLUGIN_NAME}}\nspec:\n  version: ${version}\n`,
  );
  writeFileSync(join(dir, 'index.js'), indexJs(variant));
}
