import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../backends';
import { runStorageConformance } from '../testing/suite';
import { FileStorage } from './index';

const root = mkdtempSync(join(tmpdir(), 'svc-file-conformance-'));
let stores = 0;
const freshDir = () => join(root, `store-${++stores}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Through the URL registry, as the apiserver opens it, and directly with snapshots after every few writes.
runStorageConformance('file via openStorage', (options) => openStorage(`file://${freshDir()}`, options));
runStorageConformance('file, snapshotting often', (options) =>
  FileStorage.open(freshDir(), { ...options, snapshotBytes: 4096 }),
);
