// ESLint (pinned in package.json), run by `make test`: the browser runtime, the service worker,
// the test-only measurement and the node tests, each with the globals of where it runs.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "site/", "build/", ".venv/", "shots/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "prefer-const": "error",
      eqeqeq: ["error", "smart"],
      "no-var": "error",
    },
  },
  {
    files: ["templates/runtime/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["templates/runtime/worker/**/*.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["templates/assets/labs/sw.js", "templates/dev/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["templates/assets/labs/served.js", "scripts/measure.js", "templates/dev/client.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["scripts/*.mjs", "tests/js/**/*.js", "eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
