import { get as httpGet } from 'node:http';
import { PERSONS_PATH } from './persons';
import type { ApiBenchSession } from './session';
import type { WatchTarget } from './watch-latency';

/** The apiserver as a watch target: HTTP watches of the persons collection from its current resourceVersion. */
export function svcWatchTarget(session: ApiBenchSession): WatchTarget {
  const { url, process } = session.apiserver;
  return {
    name: 'svc',
    url,
    serverPid: process.pid,
    redisPid: session.redisPid,
    createPath: PERSONS_PATH,
    watchPath: async () => `${PERSONS_PATH}?watch=true&resourceVersion=${await currentRevision(url)}`,
  };
}

/** The baseline server's bare fan-out of the same change stream (see ./baseline-fanout.ts). */
export function baselineWatchTarget(session: ApiBenchSession): WatchTarget {
  const { url, process } = session.baseline;
  return {
    name: 'baseline',
    url,
    serverPid: process.pid,
    redisPid: session.redisPid,
    createPath: '/objects',
    watchPath: () => Promise.resolve('/watch'),
  };
}

/** The persons collection's resourceVersion now (from a list of one item). */
function currentRevision(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(`${url}${PERSONS_PATH}?limit=1`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) return reject(new Error(`listing persons answered ${res.statusCode}: ${body}`));
        resolve(String((JSON.parse(body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion));
      });
    }).on('error', reject);
  });
}
