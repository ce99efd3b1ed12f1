// The PostgreSQL example: users, sessions and magic-link tokens in PostgreSQL (database sessions),
// with a credentials sign-in (scrypt hashes) and email magic links.
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/test
//   TABLE_PREFIX  optional prefix for Gatehouse's tables (letters, digits, _)
//   SMTP_URL      e.g. smtp://user:pass@smtp.example.com:587; unset, the sign-in link is printed here
// Create the tables, then start it:
//   node examples/postgres/index.js migrate      (or: npx gatehouse migrate "$DATABASE_URL")
//   node examples/postgres/index.js              (also migrates at start-up) → http://localhost:3000
// User "demo", password "demo"; or any email address for a magic link.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Nodemailer from "gatehouse/providers/nodemailer"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"

const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
export const tablePrefix = process.env.TABLE_PREFIX ?? ""
export const adapter = SqlAdapter(databaseUrl, { tablePrefix })

/** Creates or updates Gatehouse's tables; returns the migrations applied. */
export function migrateDatabase() {
  return migrate(adapter.db, { tablePrefix })
}

const scryptAsync = promisify(scrypt)

async function hashPassword(password) {
  const salt = randomBytes(16)
  return `${salt.toString("hex")}:${(await scryptAsync(password, salt, 32)).toString("hex")}`
}

async function verifyPassword(stored, password) {
  const [salt, hash] = stored.split(":")
  const actual = await scryptAsync(String(password), Buffer.from(salt, "hex"), 32)
  return timingSafeEqual(actual, Buffer.from(hash, "hex"))
}

/** The app's own password directory (Gatehouse's tables hold no passwords): one demo user. */
const PASSWORDS = [{ username: "demo", passwordHash: await hashPassword("demo"), name: "Demo User", email: "demo@example.com" }]
/** Checked for unknown usernames, so they take as long as a wrong password. */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"))

/**
 * Magic links go by SMTP when SMTP_URL is set. Without it (development) the link is printed on
 * the console instead of mailed: a `sendVerificationRequest` of our own.
 */
const email = process.env.SMTP_URL
  ? Nodemailer({ server: process.env.SMTP_URL, from: process.env.EMAIL_FROM ?? "Gatehouse example <no-reply@example.com>" })
  : Nodemailer({
      async sendVerificationRequest({ identifier, url, expires, code }) {
        console.log(`\n[mail] To: ${identifier}\n[mail] Code: ${code}\n[mail] Sign in: ${url}\n[mail] (valid until ${expires.toISOString()})\n`)
      },
    })

export const authConfig = {
  adapter, // with an adapter, sessions are stored in the database ("database" strategy)
  providers: [
    Credentials({
      name: "username and password",
      credentials: { username: { label: "Username", autocomplete: "username" }, password: { label: "Password", type: "password" } },
      async authorize({ username, password }) {
        const entry = PASSWORDS.find((candidate) => candidate.username === username)
        const ok = await verifyPassword(entry?.passwordHash ?? DUMMY_HASH, password)
        if (!entry || !ok) return null
        // With an adapter, authorize must return an id. Reuse the stored user with this email
        // (e.g. created by a magic link), so both ways of signing in reach the same user.
        const stored = await adapter.getUserByEmail(entry.email)
        return { id: stored?.id ?? `password:${entry.username}`, name: entry.name, email: entry.email }
      },
    }),
    email,
  ],
  session: { maxAge: 7 * 24 * 60 * 60 },
  theme: { brandColor: "#336791" },
}

const escape = (value) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

app.get("/", (req, res) => {
  const user = req.auth?.user
  res.send(
    page(
      "Gatehouse on PostgreSQL",
      user
        ? `<h1>Hello, ${escape(user.name ?? user.email)}</h1><p>Signed in as ${escape(user.email)}; your session is a row in PostgreSQL.</p>
           <p><a href="/dashboard">Dashboard</a> · <a href="/auth/signout">Sign out</a></p>`
        : `<h1>Gatehouse on PostgreSQL</h1><p>Sign in as <b>demo</b> / <b>demo</b>, or with a magic link (printed on the console without SMTP_URL).</p>
           <p><a href="/auth/signin">Sign in</a> · <a href="/dashboard">Dashboard (protected)</a></p>`,
    ),
  )
})

app.get("/dashboard", requireAuth(authConfig), (req, res) => {
  res.send(page("Dashboard", `<h1>Dashboard</h1><p>Hello ${escape(req.auth.user.name ?? req.auth.user.email)}; session valid until ${escape(req.auth.expires)}.</p><p><a href="/">Home</a></p>`))
})

app.get("/api/me", requireAuth(authConfig), (req, res) => res.json(req.auth))

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const applied = await migrateDatabase()
  console.log(applied.length ? `Migrations applied: ${applied.join(", ")}` : "The schema is up to date.")
  if (process.argv[2] === "migrate") {
    await adapter.close()
  } else {
    const port = Number(process.env.PORT ?? 3000)
    app.listen(port, () => console.log(`Gatehouse PostgreSQL example on http://localhost:${port} (user "demo", password "demo")`))
  }
}
