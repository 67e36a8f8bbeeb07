import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { groupByModule, type Role } from '../roles/roles';
import { RoleChoices } from './role-choice';

const A = 'rbac.authorization.svc.run/';
const role = (name: string, display: string, module: string, dependencies: string[] = []): Role => ({
  metadata: {
    name,
    annotations: {
      [`${A}display-name`]: display,
      [`${A}module`]: module,
      [`${A}dependencies`]: JSON.stringify(dependencies),
    },
  },
});
const ROLES = [
  role('users-view', 'View users', 'Console'),
  role('users-manage', 'Manage users', 'Console', ['users-view']),
  role('post-author', 'Author', 'Posts'),
];

describe('choosing roles', () => {
  it('groups them by module, ticks and locks what a chosen role includes, and reports a choice', () => {
    const onToggle = vi.fn();
    render(<RoleChoices groups={groupByModule(ROLES)} roles={ROLES} chosen={['users-manage']} onToggle={onToggle} />);
    expect(screen.getAllByRole('group').map((g) => g.querySelector('legend')?.textContent)).toEqual([
      'Console',
      'Posts',
    ]);
    const view = screen.getByRole('checkbox', { name: 'View users' }) as HTMLInputElement;
    expect([view.checked, view.disabled]).toEqual([true, true]);
    expect(screen.getByText(/included through users-manage/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Author' }));
    expect(onToggle).toHaveBeenCalledWith('post-author', true);
  });
});
