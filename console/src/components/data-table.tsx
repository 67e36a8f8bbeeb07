import type { ComponentChildren } from 'preact';

/**
 * A table that scrolls inside its box on a narrow screen: an optional caption, a header cell per column (a
 * column given as `false` is left out, for columns shown only sometimes) and the rows as children.
 */
export function DataTable(props: {
  caption?: string;
  columns: readonly (string | false)[];
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-scroll">
      <table class={props.class}>
        {props.caption && <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns
              .filter((c): c is string => c !== false)
              .map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
