import { formatMs, formatRatio } from './report';
import { median } from './stats';

describe('median', () => {
  it('is the middle sample of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('is the mean of the two middle samples of an even count', () => {
    expect(median([4, 1, 3, 100])).toBe(3.5);
  });

  it('refuses no samples', () => {
    expect(() => median([])).toThrow('median of no samples');
  });
});

describe('formats', () => {
  it('shows three significant digits of milliseconds below a second', () => {
    expect(formatMs(0.41234)).toBe('0.412 ms');
    expect(formatMs(38.26)).toBe('38.3 ms');
    expect(formatMs(1234.6)).toBe('1235 ms');
  });

  it('shows ratios with one decimal from 10× up, two below', () => {
    expect(formatRatio(83.44)).toBe('83.4×');
    expect(formatRatio(0.625)).toBe('0.63×');
  });
});
