import { act, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { navigate } from '../router/router';
import { Layout } from './layout';

afterEach(() => history.replaceState(null, '', '/'));

describe('the layout', () => {
  it("moves the focus to the new page's heading after a navigation, not on the first page", async () => {
    history.replaceState(null, '', '/console/');
    render(
      <PermissionsContext.Provider value={{ roles: [], uiPermissions: [] }}>
        <Layout username="ada" ready pluginRoutes={[]} onLogout={() => undefined} />
      </PermissionsContext.Provider>,
    );
    await screen.findByRole('heading', { name: 'Welcome' });
    expect(document.activeElement).toBe(document.body);
    await act(() => navigate('/access'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Access' });
    expect(document.activeElement).toBe(heading);
    expect(heading.tabIndex).toBe(-1);
  });
});
