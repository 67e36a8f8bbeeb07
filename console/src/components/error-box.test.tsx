import { render, screen } from '@testing-library/preact';
import { TextField } from './field';
import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse } from '../api/errors';
import { ErrorBox } from './error-box';
import { invalid } from '../testing';

describe('ErrorBox', () => {
  it("shows the server's message and each field cause", async () => {
    const error = await errorFromResponse(
      invalid('Person.example.com "ada" is invalid', [{ field: 'spec.age', message: 'must be >= 0' }]),
    );
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

  it('says each cause once: a cause shown under its field is listed by its field only, and the summary is cut', async () => {
    const error = await errorFromResponse(
      invalid('User "x" is invalid: spec.email: must be an email; metadata.labels: too many', [
        { field: 'spec.email', message: 'must be an email' },
        { field: 'metadata.labels', message: 'too many' },
      ]),
    );
    render(
      <form>
        <TextField label="Email" name="spec.email" value="" onInput={() => undefined} causes={error.causes} />
        <ErrorBox error={error} />
      </form>,
    );
    const count = (text: string) => document.body.textContent?.split(text).length ?? 0;
    expect(count('must be an email')).toBe(2); // once
    expect(count('too many')).toBe(2); // no field shows it: listed in the box, once
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('User "x" is invalid');
    expect(screen.getByRole('link', { name: 'spec.email' }).getAttribute('href')).toBe('#field-spec.email');
  });

  it('says how long to wait after a 429', async () => {
    const status = { kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'too many failed logins' };
    const res = new Response(JSON.stringify(status), { status: 429, headers: { 'Retry-After': '42' } });
    const error = await errorFromResponse(res);
    expect(error.retryAfterSeconds).toBe(42);
    render(<ErrorBox error={error} />);
    expect(screen.getByRole('alert').textContent).toContain('Try again in 42 seconds.');
  });

  it('reads a body that is not a Status as its text', async () => {
    const error = await errorFromResponse(new Response('bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    expect(error.message).toBe('bad gateway');
    expect(error.code).toBe(502);
  });
});
