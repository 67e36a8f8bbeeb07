import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yaml from 'js-yaml';
import { runSvcctl } from '../../pkg/cli';
import { PROGRESS_MIN_DOCUMENTS } from '../../pkg/cli/apply';
import { person, usePersonsApi } from '../support/person';

// `svcctl apply` of many documents draws a progress bar on stderr when stderr is a terminal, and only then.
const suite = usePersonsApi();
const dir = mkdtempSync(join(tmpdir(), 'svcctl-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function apply(file: string, stderrIsTTY: boolean) {
  let stdout = '';
  let stderr = '';
  const code = await runSvcctl(['apply', '-f', file], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: Readable.from([]),
    stderrIsTTY,
    env: { SVC_SERVER: suite.server.url },
    home: dir,
  });
  return { code, stdout, stderr };
}

function manifest(prefix: string, count: number): string {
  const file = join(dir, `${prefix}.yaml`);
  const documents = Array.from({ length: count }, (_, i) => yaml.dump(person(`${prefix}-${i}`)));
  writeFileSync(file, documents.join('---\n'));
  return file;
}

it('draws a bar over many documents on a terminal, erased before each line and at the end', async () => {
  const count = PROGRESS_MIN_DOCUMENTS + 2;
  const run = await apply(manifest('bar', count), true);
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(count);
  expect(run.stderr).toContain(`] 0/${count} Person bar-0`);
  expect(run.stderr).toContain(`[${'#'.repeat(30)}] ${count}/${count}`);
  expect(run.stderr.endsWith('\r\x1b[K')).toBe(true);
});

it('draws none when stderr is no terminal, or for a few documents', async () => {
  expect((await apply(manifest('piped', PROGRESS_MIN_DOCUMENTS + 2), false)).stderr).toBe('');
  expect((await apply(manifest('few', 2), true)).stderr).toBe('');
});
