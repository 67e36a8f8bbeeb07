import { describe, expect, it } from 'vitest';
import { menuFor } from './components/layout';

const titles = (permissions: string[]) => menuFor(permissions).map((r) => r.title);

describe('the menu', () => {
  it('shows every entry to the super administrator', () => {
    expect(titles(['*'])).toEqual([
      'Home',
      'Dashboard',
      'Models',
      'Users',
      'Roles',
      'Access',
      'Audit',
      'Plugins',
      'Posts',
    ]);
  });

  it('shows a contributor Posts and the pages every user has, not Users', () => {
    expect(titles(['uc:posts:contribute'])).toEqual(['Home', 'Access', 'Posts']);
  });

  it('shows the Audit page only through system:audit:view', () => {
    expect(titles(['system:audit:view'])).toEqual(['Home', 'Access', 'Audit']);
    expect(titles(['system:access:view'])).not.toContain('Audit');
  });

  it('shows a post administrator Posts through system:posts:view', () => {
    expect(titles(['system:posts:view'])).toContain('Posts');
  });
});
