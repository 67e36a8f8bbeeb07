import * as keys from './role-keys';
import { isPlatformKey } from './validation/platform-keys';

describe('role label and annotation keys', () => {
  const all = Object.entries(keys);

  it.each(all)('%s is under the platform prefix, which plugins may not write unchecked', (_name, key) => {
    expect(isPlatformKey(`${key}x`)).toBe(true);
  });

  it('are distinct', () => {
    expect(new Set(all.map(([, key]) => key)).size).toBe(all.length);
  });
});
