import pkg from '../../package.json';

/** svc's own version, from package.json. */
export const SVC_VERSION: string = pkg.version;

/** GET /version: Kubernetes' version shape at the compatibility level kubectl 1.32 expects (docs/kubectl.md). */
export function versionInfo() {
  return {
    major: '1',
    minor: '32',
    gitVersion: `v1.32.0+svc.${SVC_VERSION}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
