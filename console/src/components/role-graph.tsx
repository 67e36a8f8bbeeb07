import { Link } from '../router/link';
import { NODE_HEIGHT, NODE_WIDTH, roleGraph, type GraphNode } from '../roles/graph-layout';
import type { Role } from '../roles/roles';

const PAD = 8;

/** Cuts a label to what fits in a node (the full name is in the node's title and in the list below). */
const fit = (text: string, max = 22) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A role as a picture: the role, what it is built from (dependencies, solid arrows) and what is aggregated
 * (dashed), templates marked; below it the same as a list of links, for reading and for screen readers.
 * Loaded only on the role page (its own chunk).
 */
export function RoleGraphView(props: { role: Role; roles: readonly Role[] }) {
  const graph = roleGraph(props.role, props.roles);
  const at = new Map(graph.nodes.map((n) => [n.name, n]));
  const width = graph.width + 2 * PAD;
  const height = graph.height + 2 * PAD;
  return (
    <figure class="role-graph">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-labelledby="role-graph-title"
      >
        <title id="role-graph-title">
          {`How role ${props.role.metadata.name} gets its rules: ${graph.edges.length} link${graph.edges.length === 1 ? '' : 's'}`}
        </title>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
          </marker>
        </defs>
        <g transform={`translate(${PAD},${PAD})`}>
          {graph.edges.map((edge, i) => {
            const from = at.get(edge.from);
            const to = at.get(edge.to);
            if (!from || !to) return null;
            const [x1, y1, x2, y2] = ends(from, to);
            return <line key={i} x1={x1} y1={y1} x2={x2} y2={y2} class={`edge ${edge.via}`} marker-end="url(#arrow)" />;
          })}
          {graph.nodes.map((node) => (
            <g key={node.name} class={`node${node.layer === 0 ? ' self' : ''}${node.template ? ' template' : ''}`}>
              <rect x={node.x} y={node.y} width={NODE_WIDTH} height={NODE_HEIGHT} rx="6" />
              <text x={node.x + NODE_WIDTH / 2} y={node.y + 18} text-anchor="middle" class="label">
                {fit(node.label)}
              </text>
              <text x={node.x + NODE_WIDTH / 2} y={node.y + 35} text-anchor="middle" class="name">
                {fit(node.name + (node.template ? ' · template' : ''), 26)}
              </text>
            </g>
          ))}
        </g>
      </svg>
      <figcaption>
        Arrows point to where rules come from: solid, a dependency; dashed, an aggregation.
        <ul>
          {graph.edges.map((edge, i) => (
            <li key={i}>
              <Link to={`/roles/${encodeURIComponent(edge.from)}`}>{edge.from}</Link>{' '}
              {edge.via === 'dependency' ? 'depends on' : 'aggregates'}{' '}
              <Link to={`/roles/${encodeURIComponent(edge.to)}`}>{edge.to}</Link>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** A line from the edge of one node to the edge of the other (bottom to top, or side by side in one row). */
function ends(from: GraphNode, to: GraphNode): [number, number, number, number] {
  const cx = (n: GraphNode) => n.x + NODE_WIDTH / 2;
  if (from.y === to.y) {
    const leftToRight = from.x < to.x;
    const y = from.y + NODE_HEIGHT / 2;
    return [leftToRight ? from.x + NODE_WIDTH : from.x, y, leftToRight ? to.x : to.x + NODE_WIDTH, y];
  }
  const down = from.y < to.y;
  return [cx(from), down ? from.y + NODE_HEIGHT : from.y, cx(to), down ? to.y : to.y + NODE_HEIGHT];
}
