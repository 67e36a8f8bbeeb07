import { ProgressBar } from './progress';

describe('ProgressBar', () => {
  it('draws the share done in place, and clears itself once', () => {
    let out = '';
    const bar = new ProgressBar((t) => (out += t), 4, 8);
    bar.update(1, 'persons/ada');
    expect(out).toBe('\r\x1b[K[##------] 1/4 persons/ada');
    out = '';
    bar.update(4);
    expect(out).toBe('\r\x1b[K[########] 4/4');
    out = '';
    bar.clear();
    bar.clear();
    expect(out).toBe('\r\x1b[K');
  });

  it('never overflows: more done than the total is a full bar; a long label is cut', () => {
    let out = '';
    new ProgressBar((t) => (out += t), 2, 4).update(3, 'x'.repeat(100));
    expect(out).toBe(`\r\x1b[K[####] 3/2 ${'x'.repeat(40)}`);
  });
});
