// Issue #36's sign-in throughput: Gatehouse with the router at /auth, cookie sessions, the memory
// adapter, and four ways to sign in:
// - credentials: `authorize` compares a string (the flow's own cost, no hash);
// - password: the Password provider, the user's hash scrypt at the default cost (hashPassword());
// - email: magic links; the link is kept in memory instead of mailed, handed out by
//   GET /__bench/last-link?email=... (one address per load connection, so links never cross);
// - passkey: a passkey registered by the runner (bench/lib/soft-authenticator.js) over HTTP.
// The passkey's RP id is the loopback address the server listens on.
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Credentials from "gatehouse/providers/credentials"
import Email from "gatehouse/providers/email"
import Passkey from "gatehouse/providers/passkey"
import Password, { hashPassword } from "gatehouse/providers/password"
import { serve } from "../lib/serve.js"

export const USER = { email: "bench@example.com", password: "bench password of good length" }

const adapter = MemoryAdapter()
const user = await adapter.createUser({ id: "bench-user", email: USER.email, emailVerified: new Date(), name: "Bench User" })
await adapter.setPasswordHash(user.id, await hashPassword(USER.password))
await adapter.linkAccount({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id })

/** email → the last magic link Gatehouse asked to send. */
const links = new Map()

const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  // The load generator signs in thousands of times from one address: measure the work, not the limiter.
  rateLimit: false,
  adapter,
  session: { strategy: "jwt" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (email === USER.email && password === "bench" ? { id: user.id, email: USER.email, name: "Bench User" } : null),
    }),
    Password({ sendMail: async () => undefined }),
    Email({ sendVerificationRequest: async ({ identifier, url }) => void links.set(identifier, url) }),
    Passkey(),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/__bench/last-link", (req, res) => {
  const link = links.get(String(req.query.email))
  if (!link) return res.status(404).json({ error: "no link" })
  res.json({ link })
})
app.get("/protected", requireAuth(config), (req, res) => {
  res.json({ email: req.auth.user.email })
})

serve(app)
