import { sleep } from '../../pkg/util/backoff';
import { client, startTestApiServer } from '../support/apiserver';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// Ctrl-C on `make run` just after it started: the apiserver stops at once, even while a plugin's start(ctx) is
// still under way (it used to wait for the plugin's start timeout, a minute by default).

const pluginsDir = usePluginsDir('plugin-stop-while-starting');

test('an apiserver stopped while a plugin is STARTING stops without waiting for the start timeout', async () => {
  writePlugin(pluginsDir, 'slow', { code: 'module.exports = { start: () => new Promise(() => {}) };' });
  // A start timeout far beyond this test's own time limit: only a stop that does not wait for it can pass.
  const server = await startTestApiServer({ pluginsDir, pluginStartTimeoutSeconds: 3600 });
  const api = client(server.url);
  await waitFor(
    async () => (await api('GET', '/apis/plugin.svc.run/v1alpha1/plugins/slow')).body?.status?.phase === 'STARTING',
    { timeoutMs: 20_000, what: 'the plugin to be STARTING' },
  );
  const deadline = new AbortController();
  const stopped = server.stop().then(() => {
    deadline.abort();
    return 'stopped';
  });
  const late = sleep(15_000, deadline.signal).then(() => 'still stopping after 15 s');
  expect(await Promise.race([stopped, late])).toBe('stopped');
});
