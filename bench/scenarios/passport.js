// Passport + express-session (MemoryStore): GET /protected with the session cookie that
// POST /login (passport-local) set.
import { fileURLToPath } from "node:url"
import { CookieJar, send, verifyProtected } from "../lib/http.js"

const EMAIL = "bench@example.com"

export default [
  {
    id: "passport-session",
    name: "Passport + express-session (MemoryStore)",
    library: "passport",
    job: "cookie-read",
    server: fileURLToPath(new URL("../servers/passport.js", import.meta.url)),
    prepare: async ({ origin }) => {
      const jar = new CookieJar()
      const response = await send(jar, `${origin}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: EMAIL, password: "bench" }).toString(),
      })
      if (response.status !== 200) throw new Error(`POST /login answered ${response.status} ${(await response.text()).slice(0, 200)}`)
      if (!jar.cookies.has("connect.sid")) throw new Error("POST /login set no connect.sid cookie")
      return { cookie: jar.header() }
    },
    requests: ({ cookie }) => [{ method: "GET", path: "/protected", headers: { cookie } }],
    verify: ({ origin, prepared }) => verifyProtected(origin, { cookie: prepared.cookie }, EMAIL),
  },
]
