import { LEASE_KIND } from '../registry/builtin/lease';
import { COORDINATION_GROUP, LEASES } from './lease-model';

describe('LEASES', () => {
  it('names the group, version and plural the apiserver serves Leases at', () => {
    expect(COORDINATION_GROUP).toBe(LEASE_KIND.group);
    expect(LEASES).toMatchObject({
      group: LEASE_KIND.group,
      version: LEASE_KIND.version,
      plural: LEASE_KIND.plural,
      kind: LEASE_KIND.kind,
    });
  });
});
