import { join } from 'node:path';
import { pluginFolders, withoutMachinePaths } from './machine-paths';

const PLUGINS = '/srv/svc/plugins';
const shown = (message: string, source: string, unpackedDir?: string) =>
  withoutMachinePaths(message, pluginFolders(PLUGINS, source, unpackedDir));

describe('withoutMachinePaths', () => {
  it.each([
    [
      'an archive in the plugins folder',
      `${PLUGINS}/x.tgz: refused: passwd`,
      `${PLUGINS}/x.tgz`,
      'x.tgz: refused: passwd',
    ],
    [
      "a file of the plugin's folder",
      `start failed: cannot read ${PLUGINS}/people/data.json`,
      `${PLUGINS}/people`,
      'start failed: cannot read people/data.json',
    ],
    [
      'a file where an archive was unpacked',
      "Cannot find module './gone'\nRequire stack:\n- /tmp/svc-plugin-Ab12/index.js",
      `${PLUGINS}/x.tgz`,
      "Cannot find module './gone'\nRequire stack:\n- x.tgz/index.js",
    ],
    ['the plugins folder itself', `nothing in ${PLUGINS}`, `${PLUGINS}/x`, 'nothing in .'],
    ['a folder whose name only starts the same', `${PLUGINS}2/a.js`, `${PLUGINS}/x`, `${PLUGINS}2/a.js`],
    [
      'an API path',
      'route GET /apis/x.example.com/v1/pings did not answer within 1s',
      `${PLUGINS}/x`,
      'route GET /apis/x.example.com/v1/pings did not answer within 1s',
    ],
    [
      "a file of svc's own",
      `at ${join(__dirname, 'worker.ts')}:12`,
      `${PLUGINS}/x`,
      `at ${join('pkg', 'plugin', 'worker.ts')}:12`,
    ],
  ])('shows %s without the absolute path', (_what, message, source, expected) => {
    const unpacked = source.endsWith('.tgz') && message.includes('/tmp/') ? '/tmp/svc-plugin-Ab12' : undefined;
    expect(shown(message, source, unpacked)).toBe(expected);
  });

  it('keeps a message without paths as it is, for a built-in plugin too', () => {
    expect(withoutMachinePaths('start failed: no database', pluginFolders(undefined, 'builtin:content'))).toBe(
      'start failed: no database',
    );
  });
});
