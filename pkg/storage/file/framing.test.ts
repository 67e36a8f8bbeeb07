import { frame, readRecords } from './framing';

const payloads = ['{"a":1}', '', '{"b":"é\u{1F600}"}'].map((s) => Buffer.from(s));
const file = Buffer.concat(payloads.map(frame));

describe('record framing', () => {
  it('reads back every whole record in order', () => {
    expect(readRecords(file)).toEqual({ records: payloads, validLength: file.length, torn: false });
  });

  it('stops before a record cut short at any byte, keeping the whole ones before it', () => {
    const lastStart = file.length - frame(payloads[2]).length;
    for (let cut = lastStart; cut < file.length; cut++) {
      const read = readRecords(file.subarray(0, cut));
      expect({ cut, records: read.records, validLength: read.validLength, torn: read.torn }).toEqual({
        cut,
        records: payloads.slice(0, 2),
        validLength: lastStart,
        torn: cut > lastStart,
      });
    }
  });

  it('stops at a record whose payload or checksum was changed', () => {
    const second = frame(payloads[0]).length;
    const flipped = Buffer.from(file);
    flipped[second + 8 + 0] ^= 0xff; // the second record is empty: this flips the third's length
    expect(readRecords(flipped).records).toEqual(payloads.slice(0, 2));
    const corrupt = Buffer.from(file);
    corrupt[9] ^= 0x01; // first payload byte
    expect(readRecords(corrupt)).toMatchObject({ records: [], validLength: 0, torn: true });
  });
});
