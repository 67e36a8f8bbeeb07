import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the `.lua` files are, from the repository's root. */
const LUA_FOLDER = join('pkg', 'storage', 'redis', 'scripts');

/**
 * The folder of the `.lua` files: the first folder, from this module's upwards, that holds LUA_FOLDER. Under
 * jest that is the repository's root; compiled, this module runs from dist/, where tsc copies no `.lua` file,
 * and the walk goes on up to the root. The scripts are read from the sources rather than copied into dist/ at
 * build time so that there is one copy of each, and no way to build (make, npm run build, a bare tsc) can leave
 * a server running missing or stale scripts.
 */
function luaFolder(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const folder = join(dir, LUA_FOLDER);
    if (existsSync(join(folder, 'helpers.lua'))) return folder;
    if (dir === dirname(dir)) {
      throw new Error(`cannot find the Redis storage's Lua scripts (${LUA_FOLDER}/*.lua) above ${__dirname}`);
    }
  }
}

const texts = new Map<string, string>();

/** The text of `<name>.lua` (a script or a library of functions), read on first use and kept. */
export function readLua(name: string): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(join(luaFolder(), `${name}.lua`), 'utf8');
    texts.set(name, text);
  }
  return text;
}
