import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The kinds of file worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the
 * build's `assets/`, at the highest levels, once at build time: the apiserver
 * sends them to browsers that accept them and compresses nothing per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'svc-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of readdirSync(assets).filter((f) => COMPRESSIBLE.test(f))) {
        const content = readFileSync(join(assets, name));
        writeFileSync(
          join(assets, `${name}.br`),
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}
