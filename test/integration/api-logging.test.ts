import { connect } from 'node:net';
import { startApiServer, type RunningApiServer } from '../../pkg/server/app';
import { client, TEST_ADMIN_PASSWORD, type ApiClient } from '../support/apiserver';
import { captureLog, LEVEL, type CapturedLog, type LogLine } from '../support/log-capture';
import { applyPersonModel, person, PERSONS } from '../support/person';
import { basic } from '../support/security';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { httpWatch, wsWatch } from '../support/watch-client';
import { waitFor } from '../support/wait-for';

let server: RunningApiServer;
let captured: CapturedLog;
let admin: ApiClient;

beforeAll(async () => {
  captured = captureLog('debug');
  server = await startApiServer(
    {
      listen: '127.0.0.1:0',
      authorizationMode: 'RBAC',
      adminPassword: TEST_ADMIN_PASSWORD,
      maxBodyBytes: 3 * 1024 * 1024,
      watchTimeoutSeconds: 1800,
      watchRetention: 100000,
      store: `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('logs')}`,
    },
    captured.log,
  );
  admin = client(server.url, basic('admin', TEST_ADMIN_PASSWORD));
  await applyPersonModel(admin);
});

afterAll(() => server.stop());

const accessLines = (reqId: string) => captured.lines.filter((l) => l.reqId === reqId && l.msg === 'request');

/** Waits until `lines` has `count` lines (no more), and returns them. */
async function untilLines(lines: () => LogLine[], count = 1): Promise<LogLine[]> {
  await waitFor(() => lines().length >= count, { what: `${count} access-log line(s)` });
  expect(lines()).toHaveLength(count);
  return lines();
}

describe('the access log', () => {
  it('has one info line per request: id, user, verb, path, status, duration and bytes', async () => {
    await admin('POST', PERSONS, person('logged'));
    const res = await admin('GET', `${PERSONS}/logged`, undefined, { 'X-Request-Id': 'get-logged-1' });
    expect(res.status).toBe(200);
    const lines = await untilLines(() => accessLines('get-logged-1'));
    expect(lines[0]).toMatchObject({
      level: LEVEL.info,
      reqId: 'get-logged-1',
      user: 'admin',
      verb: 'get',
      method: 'GET',
      path: `${PERSONS}/logged`,
      code: 200,
    });
    expect(lines[0].ms).toEqual(expect.any(Number));
    expect(lines[0].ms).toBeGreaterThanOrEqual(0);
    expect(lines[0].bytes).toBeGreaterThanOrEqual(Buffer.byteLength(res.text));
  });

  it("shows a list's query string, with a secret-looking parameter's value redacted", async () => {
    const res = await admin('GET', `${PERSONS}?labelSelector=app%3Dweb&limit=5&access_token=s3cret`, undefined, {
      'X-Request-Id': 'list-query-1',
    });
    expect(res.status).toBe(200);
    const lines = await untilLines(() => accessLines('list-query-1'));
    expect(lines[0]).toMatchObject({
      verb: 'list',
      path: PERSONS,
      query: 'labelSelector=app=web&limit=5&access_token=REDACTED',
    });
    expect(captured.raw.filter((line) => line.includes('s3cret'))).toEqual([]);
  });

  it('names the anonymous user and the status of a refused request', async () => {
    const res = await client(server.url)('GET', PERSONS, undefined, { 'X-Request-Id': 'anonymous-list-1' });
    expect(res.status).toBe(401);
    const lines = await untilLines(() => accessLines('anonymous-list-1'));
    expect(lines[0]).toMatchObject({ level: LEVEL.info, user: 'anonymous', verb: 'list', code: 401 });
  });

  it('logs a watch once, when it ends, with how long it lasted', async () => {
    const watch = await httpWatch(`${server.url}${PERSONS}?watch=true`, {
      ...basic('admin', TEST_ADMIN_PASSWORD),
      'X-Request-Id': 'watch-1',
    });
    await admin('POST', PERSONS, person('watched-a'));
    await admin('POST', PERSONS, person('watched-b'));
    await waitFor(() => watch.events.events.some((e) => e.object?.metadata?.name === 'watched-b'), {
      what: 'the watch to deliver',
    });
    expect(accessLines('watch-1')).toEqual([]);
    watch.close();
    const lines = await untilLines(() => accessLines('watch-1'));
    expect(lines[0]).toMatchObject({ level: LEVEL.info, user: 'admin', verb: 'watch', code: 200 });
    expect(lines[0].ms).toBeGreaterThan(0);
  });
  it('logs a WebSocket watch once, when it ends, and a refused upgrade with its status', async () => {
    const before = captured.lines.length;
    const watch = await wsWatch(
      `${server.url.replace('http://', 'http://admin:' + TEST_ADMIN_PASSWORD + '@')}${PERSONS}`,
    );
    await admin('POST', PERSONS, person('ws-watched'));
    await waitFor(() => watch.events.events.some((e) => e.object?.metadata?.name === 'ws-watched'), {
      what: 'the watch to deliver',
    });
    const wsLines = () => captured.lines.slice(before).filter((l) => l.msg === 'request' && l.verb === 'watch');
    expect(wsLines()).toEqual([]);
    watch.close();
    const lines = await untilLines(wsLines);
    expect(lines[0]).toMatchObject({ level: LEVEL.info, user: 'admin', code: 101 });
    await expect(wsWatch(`${server.url}${PERSONS}`)).rejects.toMatchObject({ status: 401 });
    expect((await untilLines(wsLines, 2))[1]).toMatchObject({ level: LEVEL.info, user: 'anonymous', code: 401 });
  });
});

describe('a client that hangs up mid-request', () => {
  it('sending half a body, then disconnecting at once, logs nothing at error level', async () => {
    const before = captured.lines.length;
    const body = JSON.stringify(person('half'));
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.end(
      `POST ${PERSONS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('admin', TEST_ADMIN_PASSWORD).Authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nX-Request-Id: half-body-2\r\n\r\n${body.slice(0, 20)}`,
    );
    socket.destroy();
    await waitFor(() => accessLines('half-body-2').length === 1, { what: 'the abandoned request to be logged' });
    const logged = captured.lines.slice(before);
    expect(logged.filter((l) => l.level >= LEVEL.error)).toEqual([]);
  });

  it('sending half a body, then disconnecting, logs nothing at error level', async () => {
    const before = captured.lines.length;
    const body = JSON.stringify(person('half'));
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // With `Expect: 100-continue` the server says "100 Continue" once its handler has the request.
    const continued = new Promise<void>((resolve) =>
      socket.on('data', (d: Buffer) => d.toString().includes(' 100 ') && resolve()),
    );
    socket.write(
      `POST ${PERSONS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('admin', TEST_ADMIN_PASSWORD).Authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nX-Request-Id: half-body-1\r\n\r\n`,
    );
    await continued;
    socket.write(body.slice(0, 20));
    socket.destroy();
    await waitFor(() => accessLines('half-body-1').length === 1, { what: 'the abandoned request to be logged' });
    const logged = captured.lines.slice(before);
    expect(logged.filter((l) => l.level >= LEVEL.error)).toEqual([]);
    expect(accessLines('half-body-1')[0]).toMatchObject({ level: LEVEL.info, verb: 'create' });
  });
});

describe('every log line', () => {
  it('names each key once (a part of a component is its `part`, not a second `component`)', () => {
    // The start above logged the security bootstrap (the admin user made) among others.
    expect(captured.raw.some((line) => line.includes('"part":"bootstrap"'))).toBe(true);
    expect(captured.raw.filter((line) => repeatedKeys(line).length > 0)).toEqual([]);
  });
});

/** The top-level keys a JSON line names more than once (JSON.parse keeps only the last). */
function repeatedKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      const end = endOfString(line, i);
      if (depth === 1 && line[end + 1] === ':') keys.push(line.slice(i + 1, end));
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys.filter((key, at) => keys.indexOf(key) !== at);
}

/** The index of the quote that closes the JSON string opening at `start`. */
function endOfString(line: string, start: number): number {
  let i = start + 1;
  while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
  return i;
}
