// The basic example: a credentials sign-in with a demo user, email magic links and passkeys, users
// and sessions in the embedded SQLite database (examples/basic/gatehouse.sqlite, or DATABASE_URL).
// Run it with `npm run example` and open http://localhost:3000 (user "demo", password "demo").
// Magic links are mailed through SMTP_URL when it is set (EMAIL_FROM for the sender); without it,
// the link is printed on this console.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"

const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${fileURLToPath(new URL("./gatehouse.sqlite", import.meta.url))}`
export const adapter = SqlAdapter(databaseUrl)
await migrate(adapter.db)

const scryptAsync = promisify(scrypt)

/** `salt:hash`, both hex: how a real app would store a password (scrypt, from node:crypto). */
async function hashPassword(password) {
  const salt = randomBytes(16)
  return `${salt.toString("hex")}:${(await scryptAsync(password, salt, 32)).toString("hex")}`
}

async function verifyPassword(stored, password) {
  const [salt, hash] = stored.split(":")
  const actual = await scryptAsync(String(password), Buffer.from(salt, "hex"), 32)
  return timingSafeEqual(actual, Buffer.from(hash, "hex"))
}

/** A stand-in for the app's user table: one demo user, its password stored as a hash. */
const USERS = [{ id: "1", username: "demo", passwordHash: await hashPassword("demo"), name: "Demo User", email: "demo@example.com" }]
/** Checked for unknown usernames, so they take as long as a wrong password (no enumeration by timing). */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"))

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
        const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password)
        return user && ok ? { id: user.id, name: user.name, email: user.email } : null
      },
    }),
    // Passkeys: new users prove their email by a magic link, then create one on the set-up page;
    // after that they sign in with it, no address asked. Browsers
    // allow passkeys on http://localhost (a secure context), not on http://127.0.0.1.
    Passkey(),
    // Magic links: by SMTP when SMTP_URL is set; otherwise printed here, for development.
    process.env.SMTP_URL
      ? Nodemailer({ server: process.env.SMTP_URL, from: process.env.EMAIL_FROM ?? "Gatehouse example <no-reply@example.com>" })
      : Nodemailer({
          async sendVerificationRequest({ identifier, url, expires, code }) {
            console.log(`\n[mail] To: ${identifier}\n[mail] Code: ${code}\n[mail] Sign in: ${url}\n[mail] (valid until ${expires.toISOString()})\n`)
          },
        }),
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
