import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { StatusError } from '../api/errors';
import type { RequestContext } from './context';
import { PLUGIN_FILES_PATH, type ConsolePlugins } from './console-plugins';

/** Where the console is served: `/console/` (its client routes live below it). */
export const CONSOLE_PATH = '/console';

/** Hashed build output: a file's name changes with its content, so it may be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The app loads its own scripts and styles only, and talks to this server only. */
const CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The console's build (`console/dist`, made by `make build`): beside the
 * compiled `pkg/apiserver` under `dist/`, or beside the sources under jest.
 */
export function consoleDir(): string | undefined {
  const candidates = [
    join(__dirname, '..', '..', 'console', 'dist'),
    join(__dirname, '..', '..', '..', 'console', 'dist'),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/**
 * Serves the console's static files under `/console/`: hashed assets cached
 * for a year, `index.html` never cached, and `index.html` for every other
 * path without a file extension (the app's own routes, e.g. `/console/users`).
 */
export async function serveConsole(ctx: RequestContext, path: string, plugins?: ConsolePlugins): Promise<void> {
  if (path === CONSOLE_PATH && !ctx.url.pathname.endsWith('/')) {
    ctx.res.writeHead(301, { Location: `${CONSOLE_PATH}/${ctx.url.search}` });
    ctx.res.end();
    return;
  }
  if (path.startsWith(`${PLUGIN_FILES_PATH}/`)) return servePluginFile(ctx, path, plugins);
  const root = consoleDir();
  if (!root) throw new StatusError(404, 'NotFound', 'the console is not built: run `make build` (or `make run`)');
  const relative = decodedPath(ctx.url.pathname.slice(CONSOLE_PATH.length)).replace(/^\/+/, '');
  const file = await existingFile(root, relative);
  if (file && relative.startsWith('assets/')) return sendFile(ctx, file, IMMUTABLE, await precompressed(ctx, file));
  if (file) return sendFile(ctx, file, 'no-cache');
  // A missing file is a 404; any other path is one of the app's routes, answered by the app.
  if (extname(relative)) throw new StatusError(404, 'NotFound', `the console has no file "${path}"`);
  return sendFile(ctx, join(root, 'index.html'), 'no-cache');
}

/**
 * A file of a running plugin's console folder (`/console/plugin-files/<plugin>/console/…`),
 * revalidated on every use: a plugin may change while the apiserver runs.
 */
async function servePluginFile(ctx: RequestContext, path: string, plugins?: ConsolePlugins): Promise<void> {
  const relative = decodedPath(ctx.url.pathname.slice(PLUGIN_FILES_PATH.length + 1));
  const file = await plugins?.file(relative);
  if (!file) throw new StatusError(404, 'NotFound', `no plugin serves the console file "${path}"`);
  return sendFile(ctx, file, 'no-cache');
}

/** The file a path below the console names, when it exists inside the build (never outside it). */
async function existingFile(root: string, relative: string): Promise<string | undefined> {
  const file = normalize(join(root, relative));
  if (!relative || !file.startsWith(root + sep)) return undefined;
  return (await stat(file).catch(() => undefined))?.isFile() ? file : undefined;
}

/** The encodings the build writes beside each asset (`<file>.br`, `<file>.gz`), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];

/**
 * The precompressed form of an asset the client accepts (`Accept-Encoding`,
 * a `q=0` refuses), if the build wrote one.
 */
async function precompressed(
  ctx: RequestContext,
  file: string,
): Promise<{ file: string; encoding: string } | undefined> {
  const accepted = acceptedEncodings(ctx.req.headers['accept-encoding']);
  for (const { name, suffix } of ENCODINGS) {
    if (!accepted.has(name)) continue;
    if ((await stat(file + suffix).catch(() => undefined))?.isFile()) return { file: file + suffix, encoding: name };
  }
  return undefined;
}

/** The codings an `Accept-Encoding` header accepts (those with q > 0), lower case. */
function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (coding && !(q && Number(q.slice(2)) === 0)) accepted.add(coding);
  }
  return accepted;
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new StatusError(400, 'BadRequest', `malformed path "${path}"`);
  }
}

/** Sends a file; `encoded`: its precompressed form to send instead, with its `Content-Encoding`. */
async function sendFile(
  ctx: RequestContext,
  file: string,
  cacheControl: string,
  encoded?: { file: string; encoding: string },
): Promise<void> {
  const body = encoded?.file ?? file;
  const { size } = await stat(body);
  ctx.res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Cache-Control': cacheControl,
    // Assets differ by Accept-Encoding (a cache must not hand brotli to a client that asked for gzip).
    ...(cacheControl === IMMUTABLE ? { Vary: 'Accept-Encoding' } : {}),
    ...(encoded ? { 'Content-Encoding': encoded.encoding } : {}),
    'X-Content-Type-Options': 'nosniff',
    ...(file.endsWith('.html') ? { 'Content-Security-Policy': CSP } : {}),
  });
  if (ctx.req.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(body);
    stream.on('error', reject);
    ctx.res.on('close', resolve);
    stream.pipe(ctx.res);
  });
}
