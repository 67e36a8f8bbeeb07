import { CREATION_INDEX, DELETION_INDEX, LABELS_INDEX, NAME_INDEX } from '../../indexes';
import type { IndexLayout } from '../keys';
import { readLua } from './lua-files';

/** The script commands a store defines on its client (see ./index.ts for their calls). */
export type ScriptName = 'svcWrite' | 'svcDelete' | 'svcList' | 'svcDefineIndexes' | 'svcBuildBatch' | 'svcFinishBuild';

/** A Lua string literal of a name made of plain characters (the only kind the scripts are given). */
function luaString(text: string): string {
  if (!/^[\w.-]+$/.test(text)) throw new Error(`not a plain name for a Lua string: ${JSON.stringify(text)}`);
  return `'${text}'`;
}

/** The default indexes' names, defined in ../../indexes.ts, as the Lua locals helpers.lua and list.lua use. */
const INDEX_NAMES_LUA =
  'local NAME_INDEX, LABELS_INDEX, CREATION_INDEX, DELETION_INDEX = ' +
  [NAME_INDEX, LABELS_INDEX, CREATION_INDEX, DELETION_INDEX].map(luaString).join(', ');

/**
 * What a script runs after, in this order: the default indexes' names, the separator bytes (bytes.lua), the
 * index set functions of a layout (index-sets-<layout>.lua, ADR 0025) and the shared helpers (helpers.lua).
 */
export function luaLibraries(layout: IndexLayout): string {
  return [INDEX_NAMES_LUA, readLua('bytes'), readLua(`index-sets-${layout}`), readLua('helpers')].join('\n');
}

/** The full text of each script of a store whose index sets are in `layout`. */
export function scriptSources(layout: IndexLayout): Record<ScriptName, string> {
  const withLibraries = (script: string) => `${luaLibraries(layout)}\n${readLua(script)}`;
  return {
    svcWrite: withLibraries('write'),
    svcDelete: withLibraries('delete'),
    svcList: withLibraries('list'),
    // It empties an index's set in either layout, so it carries the bucketed functions whatever the store's.
    svcDefineIndexes: `${luaLibraries('bucketed')}\n${readLua('define-indexes')}`,
    svcBuildBatch: withLibraries('build-batch'),
    svcFinishBuild: readLua('finish-build'),
  };
}
