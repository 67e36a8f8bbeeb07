import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage, type Storage } from '../../pkg/storage';
import { waitFor } from '../support/wait-for';

const TYPE = 'widgets.crash.svc.run';
const SUPPORT = join(__dirname, '..', 'support');

/**
 * Runs the writer child on `dir` (a snapshot every 100 KiB of journal, so that some kills land during
 * one), SIGKILLs it once `killAfter` creates are acknowledged; returns the acknowledged names. */
async function writeUntilKilled(dir: string, prefix: string, killAfter: number): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      join(SUPPORT, 'ts-require.js'),
      join(SUPPORT, 'file-store-writer.ts'),
      `file://${dir}?snapshotMiB=0.1`,
      prefix,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const acked = () => output.split('\n').slice(1, -1);
  await waitFor(() => acked().length >= killAfter || child.exitCode !== null, {
    timeoutMs: 20_000,
    what: `${killAfter} acknowledged creates`,
  });
  child.kill('SIGKILL');
  expect({ signal: await exited, errors }).toEqual({ signal: 'SIGKILL', errors: '' });
  // Only whole lines are acknowledgements; a name cut off by the kill was not printed in full.
  return acked();
}

describe('file:// storage after kill -9', () => {
  let dir: string;
  let storage: Storage | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-file-crash-'));
  });
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged create, across several crashes and snapshots, and writes on after each', async () => {
    const acknowledged: string[] = [];
    for (const [round, killAfter] of [200, 700, 50].entries()) {
      acknowledged.push(...(await writeUntilKilled(dir, `r${round}`, killAfter)));
      storage = await openStorage(`file://${dir}`);
      const stored = new Set((await storage.list(TYPE)).items.map((o) => o.metadata.name));
      const lost = acknowledged.filter((name) => !stored.has(name));
      expect({ round, acknowledged: acknowledged.length >= killAfter, lost }).toEqual({
        round,
        acknowledged: true,
        lost: [],
      });
      // Revisions go on from the last durable write: one per stored object, none reused.
      expect(await storage.currentRevision(TYPE)).toBe(String(stored.size));
      await storage.close();
      storage = undefined;
    }
  });
});
