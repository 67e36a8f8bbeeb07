import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fakeServer, invalid, sent } from '../testing';
import { PasswordForm } from './password-form';

const form = (askCurrent: boolean) => (
  <PasswordForm
    path="/p"
    id="pw"
    title="Change your password"
    askCurrent={askCurrent}
    submitLabel="Change password"
    doneMessage="Password changed."
  />
);

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('the password form', () => {
  it('sends the current and the new password when the current one is asked for, then empties both', async () => {
    const calls = fakeServer(() => ({}));
    render(form(true));
    type('Current password', 'old-secret');
    type('New password', 'new-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText('Password changed.');
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/p' });
    expect(sent(calls[0])).toEqual({ oldPassword: 'old-secret', password: 'new-secret' });
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });

  it('asks only for the new password otherwise, and shows a refusal under its field', async () => {
    const calls = fakeServer(() => invalid('password refused', [{ field: 'password', message: 'too short' }]));
    render(form(false));
    expect(screen.queryByLabelText('Current password')).toBeNull();
    type('New password', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByText('too short', { selector: 'small' });
    expect(sent(calls[0])).toEqual({ password: 'short' });
    await waitFor(() => expect(screen.queryByText('Password changed.')).toBeNull());
  });
});
