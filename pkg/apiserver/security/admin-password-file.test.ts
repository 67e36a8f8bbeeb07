import { join } from 'node:path';
import { adminPasswordFileFor } from './admin-password-file';

describe('adminPasswordFileFor', () => {
  it("puts the file in a file:// store's folder", () => {
    expect(adminPasswordFileFor('file://./data', '/srv/svc')).toBe(join('/srv/svc', 'data', 'admin-password'));
    expect(adminPasswordFileFor('file:///var/lib/svc', '/srv/svc')).toBe('/var/lib/svc/admin-password');
  });

  it('puts it in data/ under the working directory for a store without a folder', () => {
    expect(adminPasswordFileFor('memory://', '/srv/svc')).toBe('/srv/svc/data/admin-password');
    expect(adminPasswordFileFor('redis://127.0.0.1:6379/0', '/srv/svc')).toBe('/srv/svc/data/admin-password');
  });
});
