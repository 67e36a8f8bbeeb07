import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRbacApi } from '../support/security';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { waitFor } from '../support/wait-for';

// Streamed plugin responses (API.md §11): a ReadableStream body goes to the client chunk by chunk, each chunk asked
// of the handler's stream only once the last was written (back pressure), never buffered whole.
const CHUNK = 64 * 1024;
const CHUNKS = 256; // 16 MiB: far more than the connection's buffers hold
const BASE = '/apis/streams.example.com/v1';
const pluginsDir = mkdtempSync(join(tmpdir(), 'svc-plugin-streams-'));
afterAll(() => rmSync(pluginsDir, { recursive: true, force: true }));
mkdirSync(join(pluginsDir, 'streams'));
writeFileSync(
  join(pluginsDir, 'streams', 'plugin.yaml'),
  'apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: streams}\nspec: {version: 1.0.0}\n',
);
writeFileSync(
  join(pluginsDir, 'streams', 'index.js'),
  `let produced = 0;
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
  ctx.routes.get('${BASE}/failing', () => new Response(new ReadableStream({
    pull(controller) { controller.error(new Error('disk gone')); },
  })));
  ctx.routes.get('${BASE}/broken', () => new Response(new ReadableStream({
    start(controller) { controller.enqueue(new Uint8Array(10)); controller.enqueue(new Uint8Array(10)); },
    pull(controller) { controller.error(new Error('disk gone')); },
  })));
} };`,
);

const suite = useRbacApi({ pluginsDir });
const auth = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
const started = () =>
  waitFor(
    async () =>
      (await suite.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/streams')).body?.status?.phase === 'STARTED',
    { what: 'the streams plugin to start' },
  );

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
