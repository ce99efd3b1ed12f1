import { fileURLToPath } from "node:url"
import { verifyProtected } from "../lib/http.js"

export default [
  {
    id: "bare",
    name: "bare Express",
    library: "bare",
    job: "bare",
    server: fileURLToPath(new URL("../servers/bare.js", import.meta.url)),
    prepare: async () => ({}),
    requests: () => [{ method: "GET", path: "/protected" }],
    verify: ({ origin }) => verifyProtected(origin, {}, "anonymous"),
  },
]
