import { isAllowedKey, isPlatformKey, platformKeyError } from './platform-keys';

describe('isPlatformKey', () => {
  it.each([
    ['svc.run/role-template', true],
    ['rbac.authorization.svc.run/aggregate-to-editor', true],
    ['example.com/app', false],
    ['notsvc.run/x', false],
    ['svc.run.example.com/x', false],
    ['app', false],
  ])('%s → %s', (key, expected) => {
    expect(isPlatformKey(key)).toBe(expected);
  });
});

describe('isAllowedKey', () => {
  const allowed = ['svc.run/role-template', 'rbac.authorization.svc.run/aggregate-to-*'];
  it.each([
    ['svc.run/role-template', true],
    ['rbac.authorization.svc.run/aggregate-to-editor', true],
    ['svc.run/role-template-x', false],
    ['rbac.authorization.svc.run/dependencies', false],
  ])('%s → %s', (key, expected) => {
    expect(isAllowedKey(key, allowed)).toBe(expected);
  });
});

describe('platformKeyError', () => {
  it('refuses an unprefixed key and suggests a prefix', () => {
    expect(platformKeyError('app', [])).toContain('label key "app" has no prefix');
  });

  it('refuses a platform key that is not allowed, listing the exceptions', () => {
    const error = platformKeyError('security.svc.run/x', ['svc.run/role-template']);
    expect(error).toContain('label key "security.svc.run/x" is in the platform\'s domain svc.run');
    expect(error).toContain('svc.run/role-template');
  });

  it.each([
    ['example.com/app', []],
    ['svc.run/role-template', ['svc.run/role-template']],
    ['app', ['app']],
  ])('lets %s through', (key, allowed) => {
    expect(platformKeyError(key, allowed)).toBeUndefined();
  });
});
