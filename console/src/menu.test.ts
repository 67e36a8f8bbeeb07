import { describe, expect, it } from 'vitest';
import { menuFor } from './components/layout';

const titles = (permissions: string[]) => menuFor(permissions).map((r) => r.title);

describe('the menu', () => {
  it('shows every entry to the super administrator', () => {
    expect(titles(['*'])).toEqual(['Home', 'Dashboard', 'Models', 'Users', 'Roles', 'Access', 'Plugins', 'Posts']);
  });

  it('shows a contributor Posts and the pages every user has, not Users', () => {
    expect(titles(['uc:posts:contribute'])).toEqual(['Home', 'Access', 'Posts']);
  });

  it('shows a post administrator Posts through system:posts:view', () => {
    expect(titles(['system:posts:view'])).toContain('Posts');
  });
});
