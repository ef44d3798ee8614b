// Render TeX formulas with KaTeX once, at build time (build.py runs it).
//
//   node scripts/katex.mjs < formulas.json > rendered.json
//
// In:  [{"tex": "e^{z_i}", "display": false}, …]
// Out: {"html": ["<span class=\"katex\">…</span>", …], "css": ".kx-…{…}"}
//
// The pages then carry HTML and CSS only, no KaTeX JavaScript. Two changes
// to KaTeX's markup keep the site under a strict CSP and Markdown away:
// - every style="…" attribute becomes a class, with its declarations in the
//   returned CSS (style-src 'self' blocks inline style attributes);
// - text between tags is written with character references, so that
//   Markdown, which runs after, finds no \ * _ ` [ to interpret.
// A formula KaTeX cannot parse stops the build with its message.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import katex from "katex";

const formulas = JSON.parse(readFileSync(0, "utf-8"));
const rules = new Map(); // declarations → class name

function classFor(declarations) {
  if (!rules.has(declarations)) {
    rules.set(declarations, `kx-${createHash("sha256").update(declarations).digest("hex").slice(0, 10)}`);
  }
  return rules.get(declarations);
}

// <span class="a" style="b"> → <span class="a kx-…">; an element with no class gets one
function styleToClass(html) {
  return html.replace(/<([a-z]+)((?:\s+[a-zA-Z:-]+="[^"]*")*)\s*(\/?)>/g, (tag, name, attributes, selfClosing) => {
    const style = /\sstyle="([^"]*)"/.exec(attributes);
    if (!style) return tag;
    let rest = attributes.replace(style[0], "");
    const extra = classFor(style[1]);
    rest = /\sclass="/.test(rest) ? rest.replace(/\sclass="([^"]*)"/, (_, c) => ` class="${c} ${extra}"`)
      : `${rest} class="${extra}"`;
    return `<${name}${rest}${selfClosing ? " /" : ""}>`;
  });
}

const SPECIAL = /[\\`*_{}[\]()#+\-.!|~^$&<>]/g;
function protectText(html) {
  return html.replace(/>([^<]+)</g, (_, text) =>
    // eslint-disable-next-line no-control-regex -- NUL marks an entity kept whole: no HTML text holds one
    `>${text.replace(/&(#?\w+;)/g, "\u0000$1").replace(SPECIAL, (c) => `&#${c.charCodeAt(0)};`).replace(/\u0000/g, "&")}<`);
}

const html = formulas.map(({ tex, display }, index) => {
  try {
    const rendered = katex.renderToString(tex, { displayMode: display, output: "htmlAndMathml", throwOnError: true, strict: "error" });
    return protectText(styleToClass(rendered));
  } catch (error) {
    process.stderr.write(`formula ${index}: ${error.message}\n`);
    process.exit(1);
  }
});
if (html.some((h) => / style="/.test(h))) {
  process.stderr.write("katex.mjs: è rimasto un attributo style\n");
  process.exit(1);
}
const css = [...rules].map(([declarations, name]) =>
  `.${name}{${declarations.split(";").filter((d) => d.trim()).map((d) => `${d.trim()} !important`).join(";")}}`).join("\n");
process.stdout.write(JSON.stringify({ html, css: css + "\n" }));
