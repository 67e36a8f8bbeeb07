import { describe, expect, it } from 'vitest';
import { NODE_HEIGHT, roleGraph } from './graph-layout';
import type { Role } from './roles';

const A = 'rbac.authorization.svc.run/';
const role = (name: string, extra: Partial<Role['metadata']> = {}, status?: Role['status']): Role => ({
  metadata: { name, ...extra },
  status,
});

describe('the picture of a role', () => {
  const editor = role(
    'news-editor',
    { labels: { [`${A}aggregate-to-admin`]: 'true' }, annotations: { [`${A}display-name`]: 'News editor' } },
    {
      contributors: [
        { name: 'post-author', via: 'dependency', through: 'news-editor' },
        { name: 'post-contributor', via: 'dependency', through: 'post-author' },
        { name: 'extra-reader', via: 'aggregation', through: 'news-editor' },
      ],
    },
  );
  const roles = [role('post-author', { labels: { 'svc.run/role-template': 'true' } }), role('admin')];

  it('puts the role in the middle, what it is built from below by depth, what it aggregates into above', () => {
    const graph = roleGraph(editor, roles);
    const layer = Object.fromEntries(graph.nodes.map((n) => [n.name, n.layer]));
    expect(layer).toEqual({
      admin: -1,
      'news-editor': 0,
      'post-author': 1,
      'extra-reader': 1,
      'post-contributor': 2,
    });
    const y = Object.fromEntries(graph.nodes.map((n) => [n.name, n.y]));
    expect(y.admin).toBeLessThan(y['news-editor']);
    expect(y['news-editor']).toBeLessThan(y['post-author']);
    expect(y['post-author']).toBeLessThan(y['post-contributor']);
    expect(graph.height).toBe(y['post-contributor'] + NODE_HEIGHT);
  });

  it('marks templates, names roles by display name, and keeps every edge with its kind', () => {
    const graph = roleGraph(editor, roles);
    expect(graph.nodes.find((n) => n.name === 'post-author')?.template).toBe(true);
    expect(graph.nodes.find((n) => n.name === 'news-editor')?.label).toBe('News editor');
    expect(graph.edges).toEqual([
      { from: 'news-editor', to: 'post-author', via: 'dependency' },
      { from: 'post-author', to: 'post-contributor', via: 'dependency' },
      { from: 'news-editor', to: 'extra-reader', via: 'aggregation' },
      { from: 'admin', to: 'news-editor', via: 'aggregation' },
    ]);
  });

  it('wraps a wide layer into rows that fit, none overlapping', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ name: `t${i}`, via: 'dependency', through: 'wide' }));
    const graph = roleGraph(role('wide', {}, { contributors: many }), []);
    const boxes = graph.nodes.map((n) => `${n.x},${n.y}`);
    expect(new Set(boxes).size).toBe(graph.nodes.length);
    expect(Math.max(...graph.nodes.map((n) => n.x))).toBeLessThan(graph.width);
  });
});
