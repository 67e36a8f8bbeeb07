import { resolve } from 'node:path';
import { fileTarget } from './file-url';

describe('file:// storage URLs', () => {
  it.each([
    ['file://./data', resolve('data')],
    ['file://data', resolve('data')],
    ['file://../svc/data', resolve('../svc/data')],
    ['file:///var/lib/svc', '/var/lib/svc'],
    ['file://./my%20data', resolve('my data')],
  ])('%s is the directory %s', (url, dir) => {
    expect(fileTarget(new URL(url))).toEqual({ dir });
  });

  it('reads snapshotMiB and rejects a bad one or a URL without a directory', () => {
    expect(fileTarget(new URL('file://./d?snapshotMiB=2')).snapshotBytes).toBe(2 * 1024 * 1024);
    expect(() => fileTarget(new URL('file://./d?snapshotMiB=-1'))).toThrow(/snapshotMiB/);
    expect(() => fileTarget(new URL('file:///'))).toThrow(/needs a directory/);
  });
});
