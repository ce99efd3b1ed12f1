// Vite builds the React app in this folder (`npx vite build examples/spa/web`, into ./dist, which
// examples/spa/server.js serves). No React plugin is needed: Vite transforms TSX itself.
//
// `gatehouse/client` and `gatehouse/react` are the package's browser entries. An app that
// installed gatehouse resolves them from node_modules with no configuration; this example lives
// inside the package's own checkout, so the aliases point at the build in ../../../dist/client
// (`npm run build` makes it). That works whether or not the checkout can import itself by name.
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

const clientBuild = (file) => fileURLToPath(new URL(`../../../dist/client/${file}`, import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: {
    alias: [
      { find: /^gatehouse\/client$/, replacement: clientBuild("index.js") },
      { find: /^gatehouse\/react$/, replacement: clientBuild("react.js") },
    ],
  },
  // The automatic JSX runtime (react/jsx-runtime), as tsconfig.json's "jsx": "react-jsx" says.
  oxc: { jsx: { runtime: "automatic" } },
  build: { outDir: "dist", emptyOutDir: true },
})
