import { connect } from 'node:net';
import { usePersonsApi, person, PERSONS } from '../support/person';
import { httpWatch } from '../support/watch-client';
import { waitFor } from '../support/wait-for';

const suite = usePersonsApi({ requestTimeoutSeconds: 0.5, watchBookmarkIntervalSeconds: 0.2 });

/** Writes `head` and `body` on a fresh connection and resolves with everything the server sends until it closes. */
function sendRaw(head: string, body: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(suite.server.port, '127.0.0.1');
    let received = '';
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${timeoutMs} ms; got ${JSON.stringify(received)}`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(received);
    });
    socket.write(head + body);
  });
}

it('answers a body shorter than its Content-Length with 408 Timeout after the request timeout, and closes', async () => {
  const body = JSON.stringify(person('slow'));
  const started = Date.now();
  const response = await sendRaw(
    `POST ${PERSONS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n`,
    body,
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  expect(response).toMatch(/^HTTP\/1\.1 408 /);
  const status = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
  expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 408 });
  expect((await suite.api('GET', `${PERSONS}/slow`)).status).toBe(404);
});

it('answers a request head that never ends with 408 Timeout', async () => {
  const response = await sendRaw(`GET ${PERSONS} HTTP/1.1\r\nHost: x\r\n`, '');
  expect(response).toMatch(/^HTTP\/1\.1 408 /);
});

it('serves a complete request as usual', async () => {
  const body = JSON.stringify(person('quick'));
  const response = await sendRaw(
    `POST ${PERSONS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
  );
  expect(response).toMatch(/^HTTP\/1\.1 201 /);
});

it('bounds receiving a request, not answering it: a watch outlives the request timeout', async () => {
  const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&allowWatchBookmarks=true`);
  // Six bookmarks 200 ms apart span more than twice the 500 ms request timeout.
  await waitFor(() => watch.events.events.filter((e) => e.type === 'BOOKMARK').length >= 6, {
    timeoutMs: 5000,
    what: 'six BOOKMARK events',
  });
  expect(watch.events.ended).toBe(false);
  watch.close();
});
