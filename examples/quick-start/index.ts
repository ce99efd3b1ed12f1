import { scryptSync, timingSafeEqual } from "node:crypto"
import express from "express"
import { authRouter, authSession, requireAuth, type AuthConfig } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"

// Your users: one here, its password ("demo") stored as a salted scrypt hash.
const hash = (password: string, salt: string) => scryptSync(password, salt, 32)
const users = [{ id: "1", username: "demo", name: "Demo", salt: "5f1c9a", passwordHash: hash("demo", "5f1c9a") }]
const nobody = { salt: "000000", passwordHash: hash("no password", "000000") }

const authConfig = {
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      async authorize({ username, password }) {
        const user = users.find((candidate) => candidate.username === username)
        // Check a hash even for an unknown user, so both answers take as long.
        const { salt, passwordHash } = user ?? nobody
        const ok = timingSafeEqual(hash(String(password), salt), passwordHash)
        return user && ok ? { id: user.id, name: user.name } : null
      },
    }),
  ],
} satisfies AuthConfig

const app = express()
app.use("/auth", authRouter(authConfig)) // every action under /auth: /auth/signin, /auth/signout, ...
app.use(authSession(authConfig)) // req.auth and res.locals.auth: Session | null
app.get("/", (req, res) => res.send(`<a href="/dashboard">Dashboard</a> <a href="/auth/signin">Sign in</a> <a href="/auth/signout">Sign out</a>`))
app.get("/dashboard", requireAuth(authConfig), (req, res) => res.type("text").send(`Hello ${req.auth?.user?.name}`))
app.listen(Number(process.env.PORT ?? 3000))
