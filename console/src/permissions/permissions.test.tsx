import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { HasPermission, PermissionsContext } from './permissions';

function renderWith(uiPermissions: string[], required: string[]) {
  return render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions }}>
      <HasPermission permissions={required} fallback={<span>hidden</span>}>
        <button type="button">Publish</button>
      </HasPermission>
    </PermissionsContext.Provider>,
  );
}

describe('HasPermission', () => {
  it('renders its children for a holder of one of the permissions', () => {
    renderWith(['uc:posts:publish'], ['uc:posts:publish']);
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
  });

  it('renders its children for the super administrator (*)', () => {
    renderWith(['*'], ['uc:posts:publish']);
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
  });

  it('renders the fallback, not the children, without the permission', () => {
    renderWith(['uc:posts:contribute'], ['uc:posts:publish']);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('hidden')).toBeTruthy();
  });
});
