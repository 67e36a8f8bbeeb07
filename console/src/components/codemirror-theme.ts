// Part of the editor loaded on demand (./codemirror-yaml.ts).
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, type Extension } from '@codemirror/state';
import { EditorView, ViewPlugin } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * The editor in the console's colours: every colour is a token of the
 * console's stylesheet (custom properties reach into the editor's shadow
 * root), so it follows the system's light or dark scheme as the pages do.
 */
const colours = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--surface-code)' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--code-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--code-active-line)', color: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': {
    backgroundColor: 'var(--code-selection)',
  },
  '.cm-matchingBracket': { backgroundColor: 'var(--code-selection)', outline: '1px solid var(--border-strong)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-panels': { backgroundColor: 'var(--surface)', color: 'var(--fg)' },
});

const highlighting = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--code-key)' },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.keyword], color: 'var(--code-literal)' },
  { tag: [tags.meta, tags.typeName, tags.labelName, tags.processingInstruction], color: 'var(--code-meta)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

const darkQuery = '(prefers-color-scheme: dark)';

/**
 * Tells CodeMirror which scheme is on (its own defaults, such as the lint
 * marks and search panel, have a light and a dark form) and keeps it told when
 * the system's scheme changes while the editor is open.
 */
function followSystemScheme(): Extension {
  const scheme = new Compartment();
  const isDark = () => typeof matchMedia === 'function' && matchMedia(darkQuery).matches;
  const follow = ViewPlugin.define((view) => {
    if (typeof matchMedia !== 'function') return {};
    const media = matchMedia(darkQuery);
    const changed = () => view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(media.matches)) });
    media.addEventListener('change', changed);
    return { destroy: () => media.removeEventListener('change', changed) };
  });
  return [scheme.of(EditorView.darkTheme.of(isDark())), follow];
}

/** The console's theme for CodeMirror: its colours, its syntax colours and the system's scheme. */
export const consoleEditorTheme = (): Extension => [colours, syntaxHighlighting(highlighting), followSystemScheme()];
