import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runSvcctl } from '../../pkg/cli';
import { person, PERSONS, usePersonsApi } from '../support/person';

// svcctl describe and edit, in-process against a real apiserver; edit runs scripted editors (node scripts
// that change the file the way a person would), given as $SVC_EDITOR.
const suite = usePersonsApi();
const dir = mkdtempSync(join(tmpdir(), 'svcctl-edit-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes an editor script: `body` runs with `text` (the file's content) and `file`, and may assign `text`. */
function editor(name: string, body: string): string {
  const script = join(dir, `${name}.js`);
  writeFileSync(
    script,
    `const fs = require('fs'); const file = process.argv[2]; let text = fs.readFileSync(file, 'utf8');
(async () => { ${body}; fs.writeFileSync(file, text); })().catch((e) => { console.error(e); process.exit(3); });\n`,
  );
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
}

async function svcctl(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runSvcctl(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: Readable.from([]),
    env: { SVC_SERVER: suite.server.url, ...env },
    home: dir,
  });
  return { code, stdout, stderr };
}

const ageOf = async (name: string) => (await suite.api('GET', `${PERSONS}/${name}`)).body.spec.age;

describe('svcctl describe', () => {
  it('prints metadata, spec and status for each object named, and exits 1 naming a missing one', async () => {
    await suite.api('POST', PERSONS, person('d-ada', { name: 'Ada Lovelace', age: 36 }, { team: 'engines' }));
    const run = await svcctl(['describe', 'ps', 'd-ada', 'd-nobody']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Name: +d-ada\nKind: +Person \(example.com\/v1alpha1\)\nLabels: +team=engines\n/);
    expect(run.stdout).toMatch(/\nSpec:\n {2}name: Ada Lovelace\n {2}age: 36\n/);
    expect(run.stdout).toMatch(/\nFinalizers: +<none>\n/);
    expect(run.stderr).toContain('Error from server (NotFound)');
  });
});

describe('svcctl edit', () => {
  it('saves what the editor changed', async () => {
    await suite.api('POST', PERSONS, person('e-save', { age: 36 }));
    const run = await svcctl(['edit', 'person', 'e-save'], {
      SVC_EDITOR: editor('older', "text = text.replace(/age: 36/, 'age: 37')"),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'persons/e-save edited\n' });
    expect(await ageOf('e-save')).toBe(37);
  });

  it('cancels when nothing changed, and when the file is emptied', async () => {
    await suite.api('POST', PERSONS, person('e-same'));
    const same = await svcctl(['edit', 'person', 'e-same'], { SVC_EDITOR: editor('noop', '') });
    expect(same).toMatchObject({ code: 0, stdout: '', stderr: 'Edit cancelled, no changes made.\n' });
    const emptied = await svcctl(['edit', 'person', 'e-same'], { SVC_EDITOR: editor('empty', "text = ''") });
    expect(emptied).toMatchObject({ code: 0, stderr: 'Edit cancelled, no changes made.\n' });
  });

  it('reopens the file with the validation error on top and the changes kept, then saves the fix', async () => {
    await suite.api('POST', PERSONS, person('e-fix', { age: 36 }));
    const run = await svcctl(['edit', 'person', 'e-fix'], {
      SVC_EDITOR: editor(
        'fix-on-second-try',
        `if (text.includes('was not valid')) {
           if (!/^# .*spec.age/m.test(text) || !text.includes('age: 200')) throw new Error('no error shown: ' + text);
           text = text.replace('age: 200', 'age: 40');
         } else text = text.replace(/age: 36/, 'age: 200')`,
      ),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'persons/e-fix edited\n' });
    expect(await ageOf('e-fix')).toBe(40);
  });

  it('gives up, exit 1, when a refused edit is saved again unchanged', async () => {
    await suite.api('POST', PERSONS, person('e-stuck', { age: 36 }));
    const run = await svcctl(['edit', 'person', 'e-stuck'], {
      SVC_EDITOR: editor('always-invalid', "text = text.replace(/age: \\d+/, 'age: 200')"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Edit cancelled, no valid changes were saved.');
    expect(await ageOf('e-stuck')).toBe(36);
  });

  it('refuses a misspelled field by default (the file reopens naming it); --validate=warn saves and warns', async () => {
    await suite.api('POST', PERSONS, person('e-typo', { age: 36 }));
    const seen = join(dir, 'typo-seen.txt');
    const typo = editor(
      'typo',
      `fs.appendFileSync(${JSON.stringify(seen)}, text); text = text.replace(/age: \\d+/, 'agee: 37')`,
    );
    const strict = await svcctl(['edit', 'person', 'e-typo'], { SVC_EDITOR: typo });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('Edit cancelled, no valid changes were saved.');
    expect(readFileSync(seen, 'utf8')).toMatch(/^# .*spec\.agee: unknown field "spec\.agee"$/m);
    expect(await ageOf('e-typo')).toBe(36);

    const warn = await svcctl(['edit', 'person', 'e-typo', '--validate=warn'], { SVC_EDITOR: typo });
    expect(warn).toMatchObject({ code: 0, stderr: 'Warning: unknown field "spec.agee"\n' });
  });

  it('on a conflict reopens the latest version with the changes applied, and saves both', async () => {
    await suite.api('POST', PERSONS, person('e-race', { name: 'Before', age: 36 }));
    const run = await svcctl(['edit', 'person', 'e-race'], {
      SVC_EDITOR: editor(
        'racing',
        `if (!text.includes('changed on the server')) {
           await fetch(process.env.SVC_SERVER + '${PERSONS}/e-race', {
             method: 'PATCH', headers: {'Content-Type': 'application/merge-patch+json'},
             body: JSON.stringify({spec: {name: 'Meanwhile'}}),
           });
           text = text.replace(/age: 36/, 'age: 50');
         } else if (!text.includes('name: Meanwhile') || !text.includes('age: 50')) throw new Error(text)`,
      ),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'persons/e-race edited\n' });
    const spec = (await suite.api('GET', `${PERSONS}/e-race`)).body.spec;
    expect(spec).toMatchObject({ name: 'Meanwhile', age: 50 });
  });

  it('exits 1 when the editor fails, changing nothing', async () => {
    await suite.api('POST', PERSONS, person('e-broken', { age: 36 }));
    const run = await svcctl(['edit', 'person', 'e-broken'], { SVC_EDITOR: editor('crash', 'process.exit(4)') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the editor .* exited with code 4; no changes made/);
    expect(await ageOf('e-broken')).toBe(36);
  });
});
