// The basic example: a credentials sign-in with a demo user and passkeys, users and sessions in
// the embedded SQLite database (examples/basic/gatehouse.sqlite, or DATABASE_URL).
// Run it with `npm run example` and open http://localhost:3000 (user "demo", password "demo").
import { timingSafeEqual } from "node:crypto"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Passkey from "gatehouse/providers/passkey"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"

const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${fileURLToPath(new URL("./gatehouse.sqlite", import.meta.url))}`
export const adapter = SqlAdapter(databaseUrl)
await migrate(adapter.db)

/** A stand-in for the app's user table. Store password hashes (argon2, scrypt) in a real app. */
const USERS = [{ id: "1", username: "demo", password: "demo", name: "Demo User", email: "demo@example.com" }]

function same(a, b) {
  const left = Buffer.from(String(a))
  const right = Buffer.from(String(b))
  return left.length === right.length && timingSafeEqual(left, right)
}

export const authConfig = {
  adapter,
  providers: [
    Credentials({
      name: "username and password",
      credentials: {
        username: { label: "Username", autocomplete: "username" },
        password: { label: "Password", type: "password" },
      },
      async authorize({ username, password }) {
        const user = USERS.find((candidate) => candidate.username === username)
        if (!user || !same(user.password, password)) return null
        return { id: user.id, name: user.name, email: user.email }
      },
    }),
    // Passkeys: new users give an email and register one; then they sign in with it. Browsers
    // allow passkeys on http://localhost (a secure context), not on http://127.0.0.1.
    Passkey(),
  ],
  theme: { brandColor: "#0f766e" },
}

const escape = (value) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

app.get("/", (req, res) => {
  const user = req.auth?.user
  res.send(
    page(
      "Gatehouse example",
      user
        ? `<h1>Hello, ${escape(user.name)}</h1><p>Signed in as ${escape(user.email)}.</p>
           <p><a href="/dashboard">Dashboard</a> · <a href="/auth/signout">Sign out</a></p>`
        : `<h1>Gatehouse example</h1><p>You are not signed in. Use <b>demo</b> / <b>demo</b>.</p>
           <p><a href="/auth/signin">Sign in</a> · <a href="/dashboard">Dashboard (protected)</a></p>`,
    ),
  )
})

app.get("/dashboard", requireAuth(authConfig), (req, res) => {
  res.send(page("Dashboard", `<h1>Dashboard</h1><p>Only signed-in users see this, ${escape(req.auth.user.name)}.</p><p><a href="/">Home</a></p>`))
})

app.get("/api/me", requireAuth(authConfig), (req, res) => {
  res.json(req.auth)
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse example on http://localhost:${port} (user "demo", password "demo")`))
}
