import type { RouteDefinition } from './router/router';
import { AccessPage } from './pages/access';
import { AuditPage } from './pages/audit';
import { DashboardPage } from './pages/dashboard';
import { HomePage } from './pages/home';
import { MePage } from './pages/me';
import { ModelObjectsPage } from './pages/model-objects';
import { ModelsPage } from './pages/models';
import { CreateObjectPage } from './pages/create-object';
import { ObjectPage } from './pages/object';
import { PluginsPage } from './pages/plugins';
import { POSTS, PostsPage } from './pages/posts';
import { RolePage } from './pages/role';
import { EditRolePage, NewRolePage } from './pages/role-editor';
import { RolesPage } from './pages/roles';
import { UserPage } from './pages/user';
import { UsersPage } from './pages/users';

const MODELS = ['system:models:view'];
const USERS = ['system:users:view'];
const ROLES = ['system:roles:view'];
const MANAGE_ROLES = ['system:roles:manage'];

/**
 * Every page of the console. `meta.permissions`: the UI permissions (any one)
 * that open the page and show its menu entry; empty: every logged-in user.
 * The API still authorises every call: these only decide what is shown.
 */
export const ROUTES: RouteDefinition[] = [
  { path: '/', title: 'Home', component: HomePage, menu: true, meta: { permissions: [] } },
  // The super administrator's (`*`): no built-in template grants it; /metrics is the administrators' own.
  {
    path: '/dashboard',
    title: 'Dashboard',
    component: DashboardPage,
    menu: true,
    meta: { permissions: ['system:dashboard:view'] },
  },
  { path: '/models', title: 'Models', component: ModelsPage, menu: true, meta: { permissions: MODELS } },
  {
    path: '/models/:group/:version/:plural',
    title: 'Objects',
    component: ModelObjectsPage,
    meta: { permissions: MODELS },
  },
  {
    path: '/models/:group/:version/:plural/+new',
    title: 'New object',
    component: CreateObjectPage,
    meta: { permissions: MODELS },
  },
  {
    path: '/models/:group/:version/:plural/:name',
    title: 'Object',
    component: ObjectPage,
    meta: { permissions: MODELS },
  },
  { path: '/users', title: 'Users', component: UsersPage, menu: true, meta: { permissions: USERS } },
  { path: '/users/:name', title: 'User', component: UserPage, meta: { permissions: USERS } },
  { path: '/roles', title: 'Roles', component: RolesPage, menu: true, meta: { permissions: ROLES } },
  { path: '/roles/+new', title: 'New role', component: NewRolePage, meta: { permissions: MANAGE_ROLES } },
  { path: '/roles/:name', title: 'Role', component: RolePage, meta: { permissions: ROLES } },
  { path: '/roles/:name/edit', title: 'Edit role', component: EditRolePage, meta: { permissions: MANAGE_ROLES } },
  { path: '/access', title: 'Access', component: AccessPage, menu: true, meta: { permissions: [] } },
  // Listing audit records needs `list` on events in audit.svc.run: the audit-view template carries both.
  { path: '/audit', title: 'Audit', component: AuditPage, menu: true, meta: { permissions: ['system:audit:view'] } },
  {
    path: '/plugins',
    title: 'Plugins',
    component: PluginsPage,
    menu: true,
    meta: { permissions: ['system:plugins:view'] },
  },
  { path: '/me', title: 'Me', component: MePage, meta: { permissions: [] } },
  {
    path: '/posts',
    title: 'Posts',
    component: PostsPage,
    menu: true,
    meta: { permissions: [POSTS.contribute, POSTS.view] },
  },
];
