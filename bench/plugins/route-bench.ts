import { compareThroughput, type Comparison, type Side } from '../apiserver/throughput';
import type { BenchSession } from '../support/session';
import type { PluginApiserver } from './apiserver';
import { itemName } from './items';
import { ITEMS_PATH, PINGS_PATH, READS_PATH } from './plugin-folder';
import type { PluginBenchOptions } from './options';

/**
 * The route part of the benchmark on one apiserver: the plugin's route `GET
 * …/pings/{name}` (a small JSON object built in the plugin's worker) against
 * the generated `GET …/items/{name}` of the plugin's model (one stored
 * object), the same load tool and concurrency, alternating measured runs
 * (bench/apiserver's compareThroughput).
 */
export function compareRouteWithGet(
  session: BenchSession,
  server: PluginApiserver,
  options: PluginBenchOptions,
): Promise<Comparison> {
  const side = sideOf(server, options);
  return compareThroughput('GET one name: route vs generated', side('route', PINGS_PATH), side('GET', ITEMS_PATH), {
    ...options,
    redisPid: session.redisPid,
  });
}

/**
 * The usual shape of a plugin API: the route `GET …/reads/{name}`, which reads
 * that item through `ctx.client` and answers it, against the generated
 * `GET …/items/{name}` of the same item, measured the same way.
 */
export function compareReadRouteWithGet(
  session: BenchSession,
  server: PluginApiserver,
  options: PluginBenchOptions,
): Promise<Comparison> {
  const side = sideOf(server, options);
  return compareThroughput(
    'GET one item: route reading it vs generated',
    side('route+read', READS_PATH),
    side('GET', ITEMS_PATH),
    { ...options, redisPid: session.redisPid },
  );
}

/** One side of a comparison: GETs of `path/<item name>` over the items, expecting 200. */
function sideOf(server: PluginApiserver, options: PluginBenchOptions) {
  return (name: string, path: string): Side => ({
    name,
    url: server.url,
    pid: server.pid,
    expectStatus: 200,
    request: (seq) => ({ method: 'GET', path: `${path}/${itemName(seq % options.objects)}` }),
  });
}
