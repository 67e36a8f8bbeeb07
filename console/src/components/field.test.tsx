import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { TextField } from './field';

describe('TextField', () => {
  it('marks a required field beside its label, outside the name assistive technology reads', () => {
    render(<TextField label="Name" name="name" value="" onInput={() => undefined} required />);
    const input = screen.getByLabelText('Name') as HTMLInputElement;
    expect(input.required).toBe(true);
    expect(screen.getByText('required').getAttribute('aria-hidden')).toBe('true');
  });

  it('has no mark on an optional field', () => {
    render(<TextField label="Email" name="email" value="" onInput={() => undefined} />);
    expect(screen.queryByText('required')).toBeNull();
  });
});
