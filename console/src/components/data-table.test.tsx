import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';

describe('DataTable', () => {
  it('has its caption, a column header per column shown, and the rows given', () => {
    render(
      <DataTable caption="Users (1)" columns={['Name', false, 'State']}>
        <tr>
          <td>ada</td>
          <td>active</td>
        </tr>
      </DataTable>,
    );
    const table = screen.getByRole('table', { name: 'Users (1)' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'State']);
    expect(screen.getByRole('cell', { name: 'ada' })).toBeTruthy();
    // It scrolls inside its box on a narrow screen.
    expect(table.parentElement?.className).toBe('table-scroll');
  });
});
