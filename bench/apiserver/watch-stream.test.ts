import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { waitFor } from '../../test/support/wait-for';
import { LatencyRecorder } from '../support/latency-stats';
import { SENT_AT_ANNOTATION } from './persons';
import { WatchStream } from './watch-stream';

const eventLine = (sentAt: number): string =>
  JSON.stringify({
    type: 'ADDED',
    object: { metadata: { annotations: { [SENT_AT_ANNOTATION]: sentAt.toFixed(3) } } },
  }) + '\n';

/** A server on a free port whose watch answers `status` and hands its response to `onWatch`. */
async function watchServer(
  status: number,
  onWatch: (res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    if (status !== 200) {
      res.end('{"kind":"Status"}');
      return;
    }
    res.flushHeaders();
    onWatch(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/watch?watch=true` };
}

describe('WatchStream', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('records the delivery latency of every stamped event', async () => {
    let response: ServerResponse | undefined;
    const started = await watchServer(200, (res) => {
      response = res;
    });
    server = started.server;
    const latencies = new LatencyRecorder();
    const stream = new WatchStream(started.url, latencies);
    await stream.open();
    const sentAt = performance.now();
    response?.write(eventLine(sentAt));
    response?.write(eventLine(sentAt));
    await waitFor(() => stream.received === 2, { what: 'two events' });
    const upperBound = performance.now() - sentAt;
    const recorded = [...latencies.values()];
    expect(recorded).toHaveLength(2);
    for (const ms of recorded) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(upperBound);
    }
    expect(stream.failure).toBeUndefined();
    stream.close();
  });

  it('fails to open when the server does not answer 200', async () => {
    const started = await watchServer(410, () => undefined);
    server = started.server;
    await expect(new WatchStream(started.url, new LatencyRecorder()).open()).rejects.toThrow(/410/);
  });

  it('notes a watch the server ends', async () => {
    const started = await watchServer(200, (res) => res.end());
    server = started.server;
    const stream = new WatchStream(started.url, new LatencyRecorder());
    await stream.open();
    await waitFor(() => stream.failure, { what: 'the end of the watch' });
    expect(stream.failure).toBe('the server ended the watch');
  });
});
