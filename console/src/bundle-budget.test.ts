// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** The JavaScript a first load fetches, gzipped: recorded in docs/console.md; the ceiling is 300 KB. */
const BUDGET_BYTES = 60 * 1024;
const assets = fileURLToPath(new URL('../dist/assets', import.meta.url));

describe('the bundle', () => {
  it(`keeps its JavaScript under ${BUDGET_BYTES / 1024} KB gzipped`, () => {
    const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
    console.log(`console JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzipped in ${files.length} file(s)`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
  });
});
