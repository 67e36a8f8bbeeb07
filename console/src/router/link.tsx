import type { ComponentChildren } from 'preact';
import { BASE, navigate } from './router';

/** A link to a client route: a real `<a href>` (open in a new tab works), navigated in place on a plain click. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={BASE + props.to} onClick={onClick} class={props.class} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
