import type { ApiObject } from '../api/object';
import type { StoreHooks } from './resource-store';

/**
 * One set of store hooks that runs each of `chain` in order: the checks
 * (`beforeCreate`, `beforeUpdate`, `beforeDelete`) each see what the previous
 * one returned, and the first to throw refuses the write; `present` and
 * `afterWrite` run in order too.
 */
export function chainHooks(...chain: StoreHooks[]): StoreHooks {
  const hooks: StoreHooks = {};
  const creates = chain.filter((h) => h.beforeCreate);
  const updates = chain.filter((h) => h.beforeUpdate);
  const deletes = chain.filter((h) => h.beforeDelete);
  const presents = chain.filter((h) => h.present);
  const afters = chain.filter((h) => h.afterWrite);
  if (creates.length) {
    hooks.beforeCreate = async (object, ctx) => {
      let out: ApiObject = object;
      for (const h of creates) out = await h.beforeCreate!(out, ctx);
      return out;
    };
  }
  if (updates.length) {
    hooks.beforeUpdate = async (next, current, ctx) => {
      let out: ApiObject = next;
      for (const h of updates) out = await h.beforeUpdate!(out, current, ctx);
      return out;
    };
  }
  if (deletes.length) {
    hooks.beforeDelete = async (current, ctx) => {
      for (const h of deletes) await h.beforeDelete!(current, ctx);
    };
  }
  if (presents.length) hooks.present = (object) => presents.reduce((out, h) => h.present!(out), object);
  if (afters.length) {
    hooks.afterWrite = async (object) => {
      for (const h of afters) await h.afterWrite!(object);
    };
  }
  return hooks;
}
