import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexProgressReader } from './index-progress';

describe('IndexProgressReader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-index-progress-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const line = (type: string, index: string, done: number, total: number) =>
    `${JSON.stringify({ level: 30, msg: 'building index', type, index, done, total })}\n`;

  it('sums the latest progress of each index of the type, reading only what was appended, a line once it is whole', () => {
    const log = join(dir, 'apiserver.log');
    writeFileSync(log, '{"level":30,"msg":"apiserver listening"}\nnot json at all\n');
    const reader = new IndexProgressReader(log, 'items.bench.example.com');
    expect(reader.read()).toEqual({ done: 0, total: 0 });

    const tags = line('items.bench.example.com', 'tags', 1000, 10000);
    appendFileSync(log, line('items.bench.example.com', 'name', 500, 10000) + line('other.example.com', 'name', 9, 9));
    appendFileSync(log, tags.slice(0, 20));
    expect(reader.read()).toEqual({ done: 500, total: 10000 });

    appendFileSync(log, tags.slice(20) + line('items.bench.example.com', 'name', 1500, 10000));
    expect(reader.read()).toEqual({ done: 2500, total: 20000 });
  });
});
