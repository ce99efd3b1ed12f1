// ESLint (flat config) with typescript-eslint's recommended rules for the sources, tests and
// benchmarks, and the JavaScript recommended rules for the examples.
import js from "@eslint/js"
import tseslint from "typescript-eslint"
import globals from "globals"

export default tseslint.config(
  { ignores: ["dist/", "**/dist/", "node_modules/", "coverage/", "test-results/", "bench/results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always"],
      "no-console": ["error", { allow: ["error", "warn", "debug", "info", "log"] }],
    },
  },
  {
    files: ["__tests__/**/*.ts", "bench/**/*.ts", "bench/**/*.js"],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    files: ["views/**/*.js", "lib/**/browser/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // gatehouse/client and gatehouse/react: browser code (tsconfig.client.json has no Node types, so Node APIs fail to compile there).
    files: ["client/**/*.ts", "client/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
  },
)
