import { pickByAccept } from './accept';

describe('pickByAccept', () => {
  it('answers a typed route when its type is asked for, the untyped one otherwise', () => {
    const offered = [undefined, 'text/csv'];
    expect(pickByAccept('text/csv', offered)).toBe(1);
    expect(pickByAccept('application/json', offered)).toBe(0);
    expect(pickByAccept('*/*', offered)).toBe(0);
    expect(pickByAccept(undefined, offered)).toBe(0);
    expect(pickByAccept('text/*', offered)).toBe(1);
  });

  it('follows q values and specificity among typed routes, and finds nothing acceptable with -1', () => {
    const offered = ['text/csv', 'application/json'];
    expect(pickByAccept('text/csv;q=0.5, application/json', offered)).toBe(1);
    expect(pickByAccept('text/csv, application/json;q=0.9', offered)).toBe(0);
    expect(pickByAccept('*/*', offered)).toBe(0);
    expect(pickByAccept('image/png', offered)).toBe(-1);
    expect(pickByAccept('text/csv;q=0', ['text/csv'])).toBe(-1);
  });
});
