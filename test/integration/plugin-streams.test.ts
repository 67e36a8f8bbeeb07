import { useRbacApi } from '../support/security';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// Streamed plugin responses (docs/plugins.md): a ReadableStream body goes to the client chunk by chunk, each chunk asked
// of the handler's stream only once the last was written (back pressure), never buffered whole.
const CHUNK = 64 * 1024;
const CHUNKS = 256; // 16 MiB: far more than the connection's buffers hold
const BASE = '/apis/streams.example.com/v1';
const pluginsDir = usePluginsDir('svc-plugin-streams');
writePlugin(pluginsDir, 'streams', {
  code: `let produced = 0;
module.exports = { start(ctx) {
  ctx.routes.get('${BASE}/downloads', () => {
    produced = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (produced === ${CHUNKS}) return controller.close();
        produced += 1;
        controller.enqueue(new Uint8Array(${CHUNK}).fill(produced % 256));
      },
    }, { highWaterMark: 0 });
    return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
  });
  ctx.routes.get('${BASE}/progress', () => ({ produced }));
  ctx.routes.add({ method: 'POST', path: '${BASE}/uploads', contentTypes: ['text/plain', 'application/octet-stream'] }, async (req) => {
    const reader = req.body.getReader();
    let bytes = 0, chunks = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) { bytes += r.value.byteLength; chunks += 1; }
    return new Response(JSON.stringify({ bytes, chunks }), { status: 201, headers: { 'content-type': 'application/json' } });
  });
  ctx.routes.add({ method: 'POST', path: '${BASE}/ignores', contentTypes: ['text/plain'] }, () => ({ ignored: true }));
  ctx.routes.get('${BASE}/failing', () => new Response(new ReadableStream({
    pull(controller) { controller.error(new Error('disk gone')); },
  })));
  ctx.routes.get('${BASE}/broken', () => new Response(new ReadableStream({
    start(controller) { controller.enqueue(new Uint8Array(10)); controller.enqueue(new Uint8Array(10)); },
    pull(controller) { controller.error(new Error('disk gone')); },
  })));
} };`,
});

const suite = useRbacApi({ pluginsDir, maxBodyBytes: 8 * 1024 * 1024 });
const auth = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
const started = () =>
  waitFor(
    async () =>
      (await suite.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/streams')).body?.status?.phase === 'STARTED',
    { what: 'the streams plugin to start' },
  );

describe('a streamed request body', () => {
  it('is read by the handler chunk by chunk, several MB of it', async () => {
    await started();
    const body = Buffer.alloc(6 * 1024 * 1024, 7);
    const res = await suite.admin('POST', `${BASE}/uploads`, body.toString('latin1'), {
      'Content-Type': 'application/octet-stream',
    });
    expect(res.status).toBe(201);
    expect(res.body.bytes).toBe(body.length);
    expect(res.body.chunks).toBeGreaterThan(1);
  });

  it('is refused with 413 beyond --max-body-bytes, and an unread body does not break the connection', async () => {
    await started();
    const tooBig = await suite.admin('POST', `${BASE}/uploads`, 'x'.repeat(9 * 1024 * 1024), {
      'Content-Type': 'text/plain',
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge' });
    const ignored = await suite.admin('POST', `${BASE}/ignores`, 'y'.repeat(2 * 1024 * 1024), {
      'Content-Type': 'text/plain',
    });
    expect(ignored.body).toEqual({ ignored: true });
    expect((await suite.admin('GET', `${BASE}/progress`)).status).toBe(200);
  });
});

describe('a streamed plugin response', () => {
  it('reaches the client before the handler has produced it all, and arrives whole', async () => {
    await started();
    const res = await fetch(`${suite.server.url}${BASE}/downloads`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(0);
    // The client holds the stream: the handler is held back by back pressure, not run to the end.
    const { produced } = (await suite.admin('GET', `${BASE}/progress`)).body;
    expect(produced).toBeLessThan(CHUNKS);
    let total = first.value!.byteLength;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) total += chunk.value.byteLength;
    expect(total).toBe(CHUNK * CHUNKS);
    expect((await suite.admin('GET', `${BASE}/progress`)).body.produced).toBe(CHUNKS);
  });

  it('cuts the connection when the stream fails midway, and the plugin keeps serving', async () => {
    await started();
    const res = await fetch(`${suite.server.url}${BASE}/broken`, { headers: auth });
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect((await suite.admin('GET', `${BASE}/progress`)).status).toBe(200);
  });

  it('is a 500 Status when the stream fails before anything was sent', async () => {
    await started();
    const res = await suite.admin('GET', `${BASE}/failing`);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'InternalError' });
    expect(res.text).not.toContain('disk gone');
  });
});
