import { GC_CONTROLLER, register as registerGc } from '../../controllers/gc';
import { PLUGINS_CONTROLLER, register as registerPlugins } from '../../controllers/plugins';
import { PERSON_STATUS_CONTROLLER, register as registerPersonStatus } from '../../controllers/person-status';
import { RBAC_AGGREGATION_CONTROLLER, register as registerRbacAggregation } from '../../controllers/rbac-aggregation';
import { USER_CLEANUP_CONTROLLER, register as registerUserCleanup } from '../../controllers/user-cleanup';
import { ControllerRegistry } from './controller-registry';

/**
 * The controllers the controller-manager ships with: a fresh registry, so
 * that a caller may add its own without touching anyone else's.
 * @example startControllerManager({ server, registry: builtinControllers().register(mine) }, log)
 */
export function builtinControllers(): ControllerRegistry {
  return new ControllerRegistry()
    .register({
      name: GC_CONTROLLER,
      description: 'removes every object marked for deletion once it has no finalizers',
      setup: ({ manager, log }) => {
        registerGc(manager, log);
      },
    })
    .register({
      name: RBAC_AGGREGATION_CONTROLLER,
      description:
        "writes each Role's effective rules (its own, its dependencies', those aggregated into it) into its status",
      setup: ({ manager, client }) => {
        registerRbacAggregation(manager, client);
      },
    })
    .register({
      name: PLUGINS_CONTROLLER,
      description: "applies each started plugin's extensions/ objects and deletes them when it stops or is removed",
      setup: ({ manager, client }) => {
        registerPlugins(manager, client);
      },
    })
    .register({
      name: USER_CLEANUP_CONTROLLER,
      description:
        "removes a deleted user's password, tokens and role-binding entries, then lets the gc controller remove them",
      setup: ({ manager, client }) => {
        registerUserCleanup(manager, client);
      },
    })
    .register({
      // The sample controller: off unless named, since it needs the Person model applied.
      name: PERSON_STATUS_CONTROLLER,
      description: "writes each Person's status from its spec (the sample; needs manifests/examples/person-model.yaml)",
      enabledByDefault: false,
      setup: ({ manager, client }) => {
        registerPersonStatus(manager, client);
      },
    });
}
