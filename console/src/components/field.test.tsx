import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { FieldError, SelectField, TextField } from './field';

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

describe('SelectField', () => {
  it('offers plain and labelled options and gives the chosen value', () => {
    const onChange = vi.fn();
    const options = [{ value: '', label: 'any' }, 'get', 'delete'];
    render(<SelectField label="Verb" name="verb" value="get" options={options} onChange={onChange} />);
    const select = screen.getByLabelText('Verb') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'any'],
      ['get', 'get'],
      ['delete', 'delete'],
    ]);
    expect(select.value).toBe('get');
    fireEvent.change(select, { target: { value: 'delete' } });
    expect(onChange).toHaveBeenCalledWith('delete');
  });
});

describe('FieldError', () => {
  it("shows the server's cause under its field, by the id the field and the error box name", () => {
    render(<FieldError id="field-spec.age" cause={{ field: 'spec.age', message: 'must be >= 0' }} />);
    expect(screen.getByText('must be >= 0').id).toBe('field-spec.age-error');
  });

  it('shows nothing without a cause', () => {
    const { container } = render(<FieldError id="field-x" cause={undefined} />);
    expect(container.innerHTML).toBe('');
  });
});
