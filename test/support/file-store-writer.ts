/**
 * A child process for the crash test: opens a `file://` store URL and creates
 * objects `<prefix>-<i>`, 16 at a time, printing each name on its own line
 * once its create is acknowledged, until it is killed.
 *
 * @example node -r test/support/ts-require.js test/support/file-store-writer.ts file:///tmp/store crash
 */
import { openStorage } from '../../pkg/storage/backends';
import '../../pkg/storage/file';

async function main(): Promise<void> {
  const [url, prefix] = process.argv.slice(2);
  const storage = await openStorage(url);
  await storage.defineType('widgets.crash.svc.run', [
    { name: 'spec.code', unique: true, indexFunc: (o) => (o.spec as { code?: string }).code },
  ]);
  process.stdout.write('ready\n');
  let next = 0;
  const writer = async (): Promise<void> => {
    for (;;) {
      const name = `${prefix}-${next++}`;
      await storage.create('widgets.crash.svc.run', {
        apiVersion: 'crash.svc.run/v1',
        kind: 'Widget',
        metadata: { name },
        spec: { code: name, note: 'x'.repeat(200) },
      });
      process.stdout.write(`${name}\n`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, writer));
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
