// Loaded on demand (a dynamic import) by the YAML editor: CodeMirror is most of the editor's weight, and the
// pages that never edit YAML never fetch it.
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { basicSetup, EditorView } from 'codemirror';
import { load, YAMLException } from 'js-yaml';
import { consoleEditorTheme } from './codemirror-theme';

/** js-yaml's complaint about a text, as an editor diagnostic at the place it names. */
export function yamlDiagnostics(text: string): Diagnostic[] {
  try {
    load(text);
    return [];
  } catch (err) {
    if (!(err instanceof YAMLException)) throw err;
    const at = Math.min(Math.max(err.mark?.position ?? 0, 0), text.length);
    return [{ from: at, to: Math.min(at + 1, text.length), severity: 'error', message: err.reason || err.message }];
  }
}

/**
 * A CodeMirror editor in `host`, labelled for assistive technology, reporting
 * every change. Returns its view. It lives in a shadow root of `host`: there
 * CodeMirror's styles are constructed style sheets, which the console's
 * Content-Security-Policy allows (in the document itself it would add a
 * `<style>` element, which the policy refuses).
 */
export function mountYamlEditor(
  host: HTMLElement,
  doc: string,
  onChange: (text: string) => void,
  label: string,
): EditorView {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  return new EditorView({
    parent: root,
    root,
    doc,
    extensions: [
      basicSetup,
      yaml(),
      consoleEditorTheme(),
      lintGutter(),
      linter((view) => yamlDiagnostics(view.state.doc.toString()), { delay: 300 }),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChange(update.state.doc.toString());
      }),
    ],
  });
}
