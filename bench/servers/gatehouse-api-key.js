// Gatehouse with API keys (issue #31): the router at /auth, a credentials user on the memory
// adapter (sessions stay cookies), API keys on with their defaults, and GET /protected behind
// requireAuth({ apiKey: true }), which the load calls with a key in `Authorization: Bearer`. The
// store is the default in-process one, and each key's rate limit (600 a minute) is left on: counting
// every request against its key is part of what a key costs. The runner makes the keys through the
// library's own flow (bench/scenarios/api-keys.js).
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { serve } from "../lib/serve.js"

const USER = { id: "bench-user", name: "Bench User", email: "bench@example.com" }

const adapter = MemoryAdapter()
await adapter.createUser({ ...USER, emailVerified: new Date() })

const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  // The runner signs in and makes its keys from one address: the sign-in limiter is not measured.
  rateLimit: false,
  adapter,
  session: { strategy: "cookie" },
  apiKeys: true,
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (email === USER.email && password === "bench" ? USER : null),
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/protected", requireAuth(config, { apiKey: true }), (req, res) => {
  res.json({ email: req.auth.user.email })
})

serve(app)
