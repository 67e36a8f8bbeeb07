import { SENT_AT_ANNOTATION } from './persons';
import { StampScanner } from './stamp-scanner';

/** One watch event line carrying a send time (or none), as the apiserver writes it. */
const eventLine = (sentAt?: string): string =>
  JSON.stringify({
    type: 'ADDED',
    object: { kind: 'Person', metadata: { name: 'p', annotations: sentAt ? { [SENT_AT_ANNOTATION]: sentAt } : {} } },
  }) + '\n';

/** The lines as an HTTP/1.1 chunked body, one chunk per line. */
const chunked = (lines: string[]): Buffer =>
  Buffer.from(lines.map((l) => `${Buffer.byteLength(l).toString(16)}\r\n${l}\r\n`).join(''));

function scan(pieces: Buffer[]): { stamps: number[]; errors: string[] } {
  const stamps: number[] = [];
  const errors: string[] = [];
  const scanner = new StampScanner(
    (sentAt) => stamps.push(sentAt),
    (line) => errors.push(line),
  );
  for (const piece of pieces) scanner.feed(piece);
  return { stamps, errors };
}

describe('StampScanner finds every send time in a watch body once', () => {
  const body = chunked([eventLine('12.500'), eventLine(), eventLine('3456.125'), eventLine('7.000')]);

  it('reads the stamps of one whole body, skipping events without one', () => {
    expect(scan([body])).toEqual({ stamps: [12.5, 3456.125, 7], errors: [] });
  });

  it('finds each stamp exactly once wherever a read splits the body', () => {
    for (let cut = 1; cut < body.length; cut++) {
      expect(scan([body.subarray(0, cut), body.subarray(cut)]).stamps).toEqual([12.5, 3456.125, 7]);
    }
  });

  it('copes with a body that arrives one byte at a time', () => {
    const bytes = [...body].map((b) => Buffer.from([b]));
    expect(scan(bytes).stamps).toEqual([12.5, 3456.125, 7]);
  });

  it('reports an ERROR event once wherever a read splits it, by as much of its line as that read holds', () => {
    const error = '{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}';
    const errorBody = chunked([eventLine('1.000'), `${error}\n`]);
    for (let cut = 1; cut < errorBody.length; cut++) {
      const { stamps, errors } = scan([errorBody.subarray(0, cut), errorBody.subarray(cut)]);
      expect(stamps).toEqual([1]);
      expect(errors).toHaveLength(1);
      expect(error.startsWith(errors[0]) && errors[0].startsWith('{"type":"ERROR"')).toBe(true);
    }
  });

  it('reports an ERROR event by its line', () => {
    const error = '{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}';
    const { stamps, errors } = scan([chunked([eventLine('1.000'), `${error}\n`])]);
    expect(stamps).toEqual([1]);
    expect(errors).toEqual([error]);
  });

  it('reads each send time as Number reads it, digits and a dot or anything else', () => {
    const values = ['0.000', '7', '123456789.125', '0.1', '98765.432', '1e3', '-5.5', '.', '1.2.3', '5.'];
    for (let i = 0; i < 200; i++) values.push((Math.random() * 1e7).toFixed(3));
    expect(scan([chunked(values.map((v) => eventLine(v)))]).stamps).toEqual(values.map(Number));
  });
});
