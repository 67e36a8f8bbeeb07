import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../client/api-client';
import type { Manager } from '../controller/manager';
import { freePort } from '../util/free-port';
import { Readiness } from './readiness';

/** What Readiness reads of a manager, set by each test. */
interface ManagerState {
  leader: string | undefined;
  leading: boolean;
  unsynced: string[];
}

const managerOf = (state: ManagerState) =>
  ({
    leaderIdentity: () => state.leader,
    isLeader: () => state.leading,
    informers: { unsynced: () => state.unsynced },
  }) as unknown as Manager;

/** An apiserver stand-in that answers `/version` with `status`, or never when `status` is 0. */
async function fakeApiserver(status: number): Promise<{ url: string; server: Server; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (status === 0) return; // never answers
    res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"kind":"Status"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, requests: () => requests };
}

/** Long enough for a first request on a busy machine. */
const PROBE_MS = 10_000;
/** What the test of a silent apiserver waits out. */
const SHORT_PROBE_MS = 300;
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function readinessAgainst(status: number, state: ManagerState, leaderElected = true, probeMs = PROBE_MS) {
  const fake = await fakeApiserver(status);
  servers.push(fake.server);
  const readiness = new Readiness(managerOf(state), new ApiClient({ server: fake.url }), leaderElected, probeMs);
  return { readiness, requests: fake.requests };
}

describe('Readiness', () => {
  it('is ready when the apiserver answers, the leader is known and the leader has synced its informers', async () => {
    const { readiness } = await readinessAgainst(200, { leader: 'cm-1', leading: true, unsynced: [] });
    expect(await readiness.problems()).toEqual([]);
  });

  it('counts any HTTP answer as reaching the apiserver (a 403 or a 503 is an answer)', async () => {
    for (const status of [403, 503]) {
      const { readiness } = await readinessAgainst(status, { leader: 'cm-2', leading: false, unsynced: [] });
      expect(await readiness.problems()).toEqual([]);
    }
  });

  it('is not ready while it does not know who leads, or while it leads with an informer not synced', async () => {
    const unknown = await readinessAgainst(200, { leader: '', leading: false, unsynced: [] });
    expect(await unknown.readiness.problems()).toEqual(['leader not known yet']);
    const syncing = await readinessAgainst(200, { leader: 'me', leading: true, unsynced: ['persons.example.com'] });
    expect(await syncing.readiness.problems()).toEqual(['informers not synced: persons.example.com']);
  });

  it('needs no leader without leader election', async () => {
    const { readiness } = await readinessAgainst(200, { leader: undefined, leading: true, unsynced: [] }, false);
    expect(await readiness.problems()).toEqual([]);
  });

  it('is not ready when the apiserver refuses connections or does not answer in time', async () => {
    const refused = new Readiness(
      managerOf({ leader: 'cm-1', leading: false, unsynced: [] }),
      new ApiClient({ server: `http://127.0.0.1:${await freePort()}` }),
      true,
      PROBE_MS,
    );
    expect(await refused.problems()).toEqual([expect.stringMatching(/^apiserver unreachable: .*ECONNREFUSED/)]);
    const silent = await readinessAgainst(0, { leader: 'cm-1', leading: false, unsynced: [] }, true, SHORT_PROBE_MS);
    expect(await silent.readiness.problems()).toEqual([`apiserver unreachable: no answer within ${SHORT_PROBE_MS} ms`]);
  });

  it('asks the apiserver once for a burst of probes', async () => {
    const { readiness, requests } = await readinessAgainst(200, { leader: 'cm-1', leading: false, unsynced: [] });
    await Promise.all(Array.from({ length: 50 }, () => readiness.problems()));
    await readiness.problems();
    expect(requests()).toBe(1);
  });
});
