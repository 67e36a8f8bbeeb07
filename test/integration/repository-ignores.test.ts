import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// What the docs and `make run` write into a checkout must never be committed by accident: tokens above all.

const root = join(__dirname, '..', '..');

/** The paths among `paths` that git ignores in this checkout. */
function ignored(paths: string[]): string[] {
  try {
    return execFileSync('git', ['check-ignore', '--no-index', ...paths], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } catch (err) {
    // Exit code 1: none of them is ignored.
    if ((err as { status?: number }).status === 1) return [];
    throw err;
  }
}

it('ignores every kubeconfig the docs write, wherever it is, and the data folder', () => {
  const written = [
    'svc.kubeconfig',
    'kubeconfig',
    'data/svc.kubeconfig',
    'data/admin-password',
    'data/controller-manager.token',
    'docs/ada.kubeconfig',
  ];
  expect(ignored(written)).toEqual(written);
});

it('still tracks the sources and docs', () => {
  expect(ignored(['README.md', 'docs/kubectl.md', 'manifests/examples/person.yaml', 'pkg/cli/config.ts'])).toEqual([]);
});
