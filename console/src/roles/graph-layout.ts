import { displayName, TEMPLATE_LABEL, type Role } from './roles';

const AGGREGATE_TO = 'rbac.authorization.svc.run/aggregate-to-';

/** One role in the picture: where it is drawn, and what it is. */
export interface GraphNode {
  name: string;
  label: string;
  template: boolean;
  /** 0: the role pictured; 1, 2…: what it is built from (by depth); -1: the roles it is aggregated into. */
  layer: number;
  x: number;
  y: number;
}

/** `from` gets `to`'s rules: by depending on it, or because `to` is aggregated into it. */
export interface GraphEdge {
  from: string;
  to: string;
  via: 'dependency' | 'aggregation';
}

export interface RoleGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export const NODE_WIDTH = 170;
export const NODE_HEIGHT = 44;
const GAP_X = 20;
const GAP_Y = 46;
/** The widest layer drawn; more roles in a layer wrap to the next row. */
const MAX_PER_ROW = 4;

/**
 * A role's picture: the role, the roles it gets rules from (its status's contributors: dependencies and
 * aggregated roles, by how far they are), and the roles its `aggregate-to-…` labels put it into; laid out in
 * rows, one row per layer (wrapped when wide), each node at a fixed size.
 */
export function roleGraph(role: Role, roles: readonly Role[]): RoleGraph {
  const name = role.metadata.name;
  const contributors = role.status?.contributors ?? [];
  const targets = aggregationTargets(role);
  const edges: GraphEdge[] = [
    ...contributors.map((c) => ({
      from: c.through ?? name,
      to: c.name,
      via: c.via === 'aggregation' ? ('aggregation' as const) : ('dependency' as const),
    })),
    ...targets.map((target) => ({ from: target, to: name, via: 'aggregation' as const })),
  ];
  const layerOf = layers(name, targets, edges);
  const byName = new Map(roles.map((r) => [r.metadata.name, r]));
  byName.set(name, role);
  return { ...place(rowsOf(layerOf), layerOf, byName), edges };
}

/** The roles this role's `aggregate-to-<target>` labels put it into. */
function aggregationTargets(role: Role): string[] {
  return Object.entries(role.metadata.labels ?? {})
    .filter(([key, value]) => key.startsWith(AGGREGATE_TO) && value === 'true')
    .map(([key]) => key.slice(AGGREGATE_TO.length));
}

/** Each role's layer: 0 the role, -1 its aggregation targets, then by distance along the edges. */
function layers(name: string, targets: string[], edges: GraphEdge[]): Map<string, number> {
  const layerOf = new Map<string, number>([[name, 0]]);
  for (const target of targets) if (!layerOf.has(target)) layerOf.set(target, -1);
  const queue = [name];
  while (queue.length) {
    const from = queue.shift() as string;
    for (const edge of edges) {
      if (edge.from !== from || layerOf.has(edge.to)) continue;
      layerOf.set(edge.to, (layerOf.get(from) ?? 0) + 1);
      queue.push(edge.to);
    }
  }
  // An edge from a role not reached (should not happen) still gets its role drawn, at the bottom.
  const deepest = Math.max(0, ...layerOf.values());
  for (const edge of edges) if (!layerOf.has(edge.to)) layerOf.set(edge.to, deepest + 1);
  return layerOf;
}

/** The rows to draw: one per layer, top to bottom, names sorted, wrapped at MAX_PER_ROW. */
function rowsOf(layerOf: Map<string, number>): string[][] {
  const rows: string[][] = [];
  for (const layer of [...new Set(layerOf.values())].sort((a, b) => a - b)) {
    const members = [...layerOf.entries()]
      .filter(([, l]) => l === layer)
      .map(([n]) => n)
      .sort();
    for (let i = 0; i < members.length; i += MAX_PER_ROW) rows.push(members.slice(i, i + MAX_PER_ROW));
  }
  return rows;
}

/** Every node at its place: rows centred in the widest row's width. */
function place(rows: string[][], layerOf: Map<string, number>, byName: Map<string, Role>): Omit<RoleGraph, 'edges'> {
  const widthOf = (count: number) => count * NODE_WIDTH + (count - 1) * GAP_X;
  const width = widthOf(Math.max(1, ...rows.map((r) => r.length)));
  const nodes = rows.flatMap((row, r) =>
    row.map((n, i): GraphNode => {
      const found = byName.get(n);
      return {
        name: n,
        label: found ? displayName(found) : n,
        template: found?.metadata.labels?.[TEMPLATE_LABEL] === 'true',
        layer: layerOf.get(n) as number,
        x: (width - widthOf(row.length)) / 2 + i * (NODE_WIDTH + GAP_X),
        y: r * (NODE_HEIGHT + GAP_Y),
      };
    }),
  );
  return { nodes, width, height: rows.length * NODE_HEIGHT + (rows.length - 1) * GAP_Y };
}
