import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse } from '../api/errors';
import { ErrorBox } from './error-box';

describe('ErrorBox', () => {
  it("shows the server's message and each field cause", async () => {
    const status = {
      kind: 'Status',
      message: 'Person.example.com "ada" is invalid',
      reason: 'Invalid',
      code: 422,
      details: { causes: [{ field: 'spec.age', reason: 'FieldValueInvalid', message: 'must be >= 0' }] },
    };
    const error = await errorFromResponse(new Response(JSON.stringify(status), { status: 422 }));
    render(<ErrorBox error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Person.example.com "ada" is invalid');
    expect(alert.textContent).toContain('spec.age');
    expect(alert.textContent).toContain('must be >= 0');
  });

  it('tells a conflict as "changed meanwhile" and offers a reload', () => {
    render(
      <ErrorBox error={new ApiError(409, 'Conflict', 'the object has been modified')} onReload={() => undefined} />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Changed meanwhile');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('reads a body that is not a Status as its text', async () => {
    const error = await errorFromResponse(new Response('bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    expect(error.message).toBe('bad gateway');
    expect(error.code).toBe(502);
  });
});
