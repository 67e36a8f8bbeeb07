import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords } from './framing';
import { Journal } from './journal';
import { journalPath } from './layout';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const texts = (seq: number) => readRecords(readFileSync(journalPath(dir, seq))).records.map((r) => r.toString());

describe('Journal', () => {
  it('writes records in append order, each file up to its rotation, and syncs every one acknowledged', async () => {
    const journal = await Journal.open(dir, 1);
    const acknowledged: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      journal.append(Buffer.from(`r${i}`));
      if (i === 100 || i === 200) journal.rotate(journal.currentSeq + 1);
      if (i % 7 === 0) acknowledged.push(journal.sync());
    }
    expect(journal.currentSeq).toBe(3);
    await Promise.all(acknowledged);
    await journal.sync();
    const name = (i: number) => `r${i}`;
    expect(texts(1)).toEqual(Array.from({ length: 101 }, (_, i) => name(i)));
    expect(texts(2)).toEqual(Array.from({ length: 100 }, (_, i) => name(101 + i)));
    expect(texts(3)).toEqual(Array.from({ length: 99 }, (_, i) => name(201 + i)));
    await journal.close();
  });

  it('appends to an existing journal after what it holds', async () => {
    const first = await Journal.open(dir, 1);
    first.append(Buffer.from('a'));
    await first.close();
    const second = await Journal.open(dir, 1);
    second.append(Buffer.from('b'));
    await second.sync();
    await second.close();
    expect(texts(1)).toEqual(['a', 'b']);
  });
});
