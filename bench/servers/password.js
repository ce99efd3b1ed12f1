// Gatehouse with the Password provider (issue #18): the router at /auth and GET /protected behind
// requireAuth, cookie sessions, the memory adapter holding one confirmed user whose password hash
// is scrypt at OWASP's parameters (N=2^17, r=8, p=1). Each sign-in checks that hash: the cost the
// benchmark shows next to the credentials sign-in (whose authorize compares a string).
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Password, { hashPassword } from "gatehouse/providers/password"
import { serve } from "../lib/serve.js"

const EMAIL = "bench@example.com"
const PASSWORD = "bench password of good length"

const adapter = MemoryAdapter()
const user = await adapter.createUser({ id: "bench-user", email: EMAIL, emailVerified: new Date(), name: "Bench User" })
await adapter.setPasswordHash(user.id, await hashPassword(PASSWORD))
await adapter.linkAccount({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id })

const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  rateLimit: false,
  adapter,
  session: { strategy: "jwt" },
  // Mail is never sent by a sign-in; the provider still needs a way to send it.
  providers: [Password({ sendMail: async () => undefined })],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/protected", requireAuth(config), (req, res) => {
  res.json({ email: req.auth.user.email })
})

serve(app, { close: async () => undefined })
