// The code editor of «Il codice Python»: CodeMirror 6 with Python, bundled
// by esbuild at build time (build.py) and loaded only when the reader
// presses «Modifica».
import { EditorView, basicSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { keymap } from "@codemirror/view";
import { EditorSelection } from "@codemirror/state";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

const theme = EditorView.theme({
  "&": { fontSize: "0.75rem", border: "1px solid var(--md-default-fg-color--lighter)", borderRadius: "0.2rem",
         backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)" },
  ".cm-content": { fontFamily: "var(--md-code-font-family, monospace)", caretColor: "var(--md-code-fg-color)" },
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-default-fg-color--light)",
                   borderRight: "1px solid var(--md-default-fg-color--lightest)" },
  ".cm-scroller": { maxHeight: "32rem", overflow: "auto" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--md-default-fg-color--lightest)" },
});

// The code's colours are the theme's own (mkdocs-material's --md-code-hl-*), so they follow light and dark
// as the highlighted listings do; CSS custom properties reach into the shadow root.
const colours = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--md-code-hl-keyword-color)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
  { tag: tags.number, color: "var(--md-code-hl-number-color)" },
  { tag: tags.comment, color: "var(--md-code-hl-comment-color)" },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)],
    color: "var(--md-code-hl-function-color)" },
  { tag: tags.operator, color: "var(--md-code-hl-operator-color)" },
  { tag: [tags.bool, tags.null, tags.self], color: "var(--md-code-hl-constant-color)" },
  { tag: tags.definitionKeyword, color: "var(--md-code-hl-keyword-color)" },
]);

// The editor lives in a shadow root: there CodeMirror puts its styles in a
// constructed stylesheet, not in a <style> element that a strict CSP
// (style-src 'self') would block.
export function createEditor(parent, text, { run, label }) {
  const root = parent.shadowRoot || parent.attachShadow({ mode: "open" });
  const view = new EditorView({
    doc: text,
    parent: root,
    root,
    extensions: [
      basicSetup,
      syntaxHighlighting(colours),
      python(),
      theme,
      keymap.of([{ key: "Mod-Enter", run: () => { run(); return true; } }]),
      EditorView.contentAttributes.of({ "aria-label": label }),
    ],
  });
  return {
    get text() { return view.state.doc.toString(); },
    set text(value) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } }); },
    goToLine(number) {
      const line = view.state.doc.line(Math.max(1, Math.min(number, view.state.doc.lines)));
      view.dispatch({ selection: EditorSelection.cursor(line.from), scrollIntoView: true });
      view.focus();
    },
    destroy() { view.destroy(); },
  };
}
