// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** The JavaScript the first page loads, gzipped (recorded in docs/console.md). */
const FIRST_PAGE_BUDGET_BYTES = 120 * 1024;
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const assets = join(dist, 'assets');

const gzipped = (file: string) => gzipSync(readFileSync(join(assets, file)), { level: 9 }).length;

/** The scripts index.html loads or preloads: what every first page fetches. */
function firstPageScripts(): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/console\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
}

describe('the bundle', () => {
  it(`keeps the first page's JavaScript under ${FIRST_PAGE_BUDGET_BYTES / 1024} KB gzipped`, () => {
    const files = firstPageScripts();
    expect(files.length).toBeGreaterThan(0);
    const size = files.reduce((sum, f) => sum + gzipped(f), 0);
    console.log(`console first page: ${(size / 1024).toFixed(1)} KB of JavaScript gzipped in ${files.length} file(s)`);
    expect(size).toBeLessThan(FIRST_PAGE_BUDGET_BYTES);
  });

  it.each([
    ['the YAML editor (CodeMirror)', 'codemirror-yaml'],
    ['the charts (uPlot)', 'uplot-chart'],
    ['the picture of a role', 'role-graph'],
  ])('leaves %s out of the first page: it loads on the pages that use it', (what, chunk) => {
    const files = readdirSync(assets).filter((f) => f.startsWith(`${chunk}-`) && f.endsWith('.js'));
    expect(files).toHaveLength(1);
    expect(firstPageScripts()).not.toContain(files[0]);
    console.log(`${what}, loaded on demand: ${(gzipped(files[0]) / 1024).toFixed(1)} KB gzipped`);
  });
});
