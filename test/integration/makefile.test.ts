import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// `make build` (and so `make run`) rebuilds only what changed: the Makefile, run with -n (print, do not run) in a
// folder laid out like the repository, with file times set so that every output is newer than its inputs.

const dir = mkdtempSync(join(tmpdir(), 'svc-makefile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'cmd/local-up/main.ts',
  'pkg/api/object.ts',
  'controllers/gc/gc.ts',
  'modules/content/index.ts',
  'bench/storage/main.ts',
  'console/package.json',
  'console/package-lock.json',
  'console/index.html',
  'console/vite.config.ts',
  'console/tsconfig.json',
  'console/src/main.tsx',
  'console/src/menu.test.ts',
];
const INSTALLED = ['node_modules/.package-lock.json', 'console/node_modules/.package-lock.json'];
const BUILT = ['console/dist/index.html', 'dist/.tsc-built'];

const T0 = Date.now() / 1000 - 3600;
/** Writes (if missing) and sets the time of a file of the folder, `offset` seconds after T0. */
function at(path: string, offset: number) {
  const file = join(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '', { flag: 'a' });
  utimesSync(file, T0 + offset, T0 + offset);
}

/** The commands `make -n TARGET` would run. */
const wouldRun = (target: string) => execFileSync('make', ['-n', target], { cwd: dir, encoding: 'utf8' });

beforeAll(() => {
  copyFileSync(join(__dirname, '..', '..', 'Makefile'), join(dir, 'Makefile'));
  INPUTS.forEach((path) => at(path, 0));
  INSTALLED.forEach((path) => at(path, 10));
  BUILT.forEach((path) => at(path, 20));
});

it('builds nothing when nothing changed, and says it is starting', () => {
  const build = wouldRun('build');
  expect(build).not.toContain('vite build');
  expect(build).not.toContain('tsc');
  expect(wouldRun('run')).toMatch(
    /starting the apiserver and the controller-manager.*\nnode dist\/cmd\/local-up\/main\.js /s,
  );
});

it('compiles the server alone after a change to a server source, saying so', () => {
  at('pkg/api/object.ts', 30);
  const build = wouldRun('build');
  expect(build).toContain('compiling the server (tsc');
  expect(build).toContain('npx tsc -p tsconfig.build.json');
  expect(build).not.toContain('vite build');
  at('dist/.tsc-built', 40);
});

it('builds the console alone after a change to its sources, not after a change to its tests', () => {
  at('console/src/menu.test.ts', 50);
  expect(wouldRun('build')).not.toContain('vite build');
  at('console/src/main.tsx', 50);
  const build = wouldRun('build');
  expect(build).toContain('building the web console (vite');
  expect(build).toContain('npx vite build');
  expect(build).not.toContain('tsc');
});
