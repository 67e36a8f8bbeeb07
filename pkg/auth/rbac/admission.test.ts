import { admissionStampFor, isAdmitted, ROLE_CHECK_VERSION, withAdmissionStamp, withStamp } from './admission';
import { ADMITTED_ANNOTATION, type Role } from './types';

const role = (extra: Partial<Role['metadata']> = {}, rules = [{ verbs: ['get'], nonResourceURLs: ['/x'] }]): Role => ({
  apiVersion: 'v1alpha1',
  kind: 'Role',
  metadata: { name: 'r', ...extra },
  rules,
});

describe('the admission stamp', () => {
  it('admits the definition it was made for, under the current check version', () => {
    const stamped = withAdmissionStamp(role());
    expect(isAdmitted(stamped)).toBe(true);
    expect(stamped.metadata.annotations?.[ADMITTED_ANNOTATION]).toMatch(new RegExp(`^${ROLE_CHECK_VERSION}:`));
    expect(isAdmitted(role())).toBe(false);
  });

  it('stops admitting once anything that grants changes: rules, dependencies, UI permissions, aggregation labels', () => {
    const stamp = admissionStampFor(role());
    const changes: Role[] = [
      role({}, [{ verbs: ['*'], nonResourceURLs: ['*'] }]),
      role({ annotations: { 'rbac.authorization.svc.run/dependencies': '["super-role"]' } }),
      role({ annotations: { 'rbac.authorization.svc.run/ui-permissions': '["*"]' } }),
      role({ labels: { 'rbac.authorization.svc.run/aggregate-to-anonymous': 'true' } }),
    ];
    for (const changed of changes) expect(isAdmitted(withStamp(changed, stamp))).toBe(false);
  });

  it('stays valid across changes that grant nothing: display name, other labels, its own annotation', () => {
    const stamp = admissionStampFor(role());
    const cosmetic = role({
      labels: { team: 'a', 'rbac.authorization.svc.run/aggregate-to-x': 'false' },
      annotations: { 'rbac.authorization.svc.run/display-name': 'R' },
    });
    expect(isAdmitted(withStamp(cosmetic, stamp))).toBe(true);
  });

  it('replaces a stamp a client sent', () => {
    const forged = withStamp(
      role({ annotations: { 'rbac.authorization.svc.run/dependencies': '["x"]' } }),
      'v1:forged',
    );
    expect(isAdmitted(forged)).toBe(false);
    expect(isAdmitted(withAdmissionStamp(forged))).toBe(true);
  });
});
