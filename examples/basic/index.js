// The basic example: every built-in sign-in feature that needs no outside service, in one app.
//   - a demo user (username "demo", password "demo") checked by the app's own code (Credentials);
//   - password accounts with sign-up, email confirmation and "forgot password" (Password);
//   - magic links and one-time codes by email (Nodemailer);
//   - passkeys (Passkey), created after a magic link proves the address;
//   - two-step verification with an authenticator app, set up from the account page (twoFactor);
//   - the account page (/auth/account), linked from the home page.
// Users and sessions live in the embedded SQLite database (examples/basic/gatehouse.sqlite, or
// DATABASE_URL). Run it with `npm run example` and open http://localhost:3000 (passkeys need
// "localhost": browsers refuse them on an IP address such as 127.0.0.1).
// Mails go through SMTP_URL when it is set (EMAIL_FROM for the sender); without it, each mail's
// link (and the magic link's code) is printed on this console, so nothing outside is needed.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import Password from "gatehouse/providers/password"
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

// Mail: by SMTP when SMTP_URL is set, otherwise printed on this console (for development).
const FROM = process.env.EMAIL_FROM ?? "Gatehouse example <no-reply@example.com>"
const smtp = process.env.SMTP_URL ? Nodemailer({ server: process.env.SMTP_URL, from: FROM }) : undefined

/** The magic link's mail, printed: the address, the one-time code and the link. */
async function printMagicLink({ identifier, url, expires, code }) {
  console.log(`\n[mail] To: ${identifier}\n[mail] Code: ${code}\n[mail] Sign in: ${url}\n[mail] (valid until ${expires.toISOString()})\n`)
}

/** A password account's mail (confirm the address, reset the password, ...), printed. */
async function printPasswordMail({ to, subject, url, expires }) {
  console.log(`\n[mail] To: ${to}\n[mail] Subject: ${subject}\n[mail] Open: ${url}\n[mail] (valid until ${expires.toISOString()})\n`)
}

export const authConfig = {
  adapter,
  providers: [
    // The demo user: the app checks the username and password itself (see USERS above).
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
    // Password accounts that Gatehouse keeps itself: "Create an account" on the sign-in page, a
    // mail to confirm the address (no sign-in before that), "Forgot password?", and changing the
    // password from the account page. Passwords are at least 12 characters.
    Password(smtp ? { email: smtp } : { sendMail: printPasswordMail }),
    // Passkeys: new users prove their email by a magic link, then create one on the set-up page;
    // after that they sign in with it, no address asked.
    Passkey(),
    // Magic links, and the one-time code in the same mail for typing on another device.
    smtp ?? Nodemailer({ sendVerificationRequest: printMagicLink }),
  ],
  // Two-step verification: any user can turn it on from the account page (an authenticator app's
  // codes, plus recovery codes); after that, every sign-in asks for a code. Its single-use rules
  // (each code once, the tries per user) are kept in this process's memory, the default `store`:
  // fine for one process; a site served by several would configure a shared `store` (Redis).
  twoFactor: { issuer: "Gatehouse example" },
  // The built-in pages' look; style.css gives the example's own pages the same one.
  theme: { brandColor: "#0f766e", appName: "Gatehouse example" },
}

const escape = (value) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])

// The example's own pages have no inline script or style (the stylesheet is a file), so they
// work under a strict Content-Security-Policy, e.g. one set with helmet:
//   default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'
// The example sends none itself, to stay short; Gatehouse's pages send their own.

/** What to call the user: their name, else their address (a magic-link user has no name), else nothing. */
const displayName = (user) => user?.name?.trim() || user?.email || ""

/** A page of the example: the header (the app's name and links) and `body` in a card. */
function page(req, res, title, body) {
  const user = req.auth?.user
  const links = user
    ? `<li><a href="/dashboard">Dashboard</a></li><li><a href="/auth/account">Account</a></li><li><a href="/auth/signout">Sign out</a></li>`
    : `<li><a href="/auth/signin">Sign in</a></li><li><a href="/auth/signup">Create an account</a></li>`
  res.send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><link rel="stylesheet" href="/style.css"></head><body>
<header><div class="bar"><a class="app-name" href="/">Gatehouse example</a><nav aria-label="Main"><ul>${links}</ul></nav></div></header>
<main>${body}</main></body></html>`)
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

// The stylesheet, read once when the app starts.
const STYLE = readFileSync(new URL("./style.css", import.meta.url), "utf8")
app.get("/style.css", (req, res) => {
  res.type("text/css").set("Cache-Control", "public, max-age=3600").send(STYLE)
})

app.get("/", (req, res) => {
  const user = req.auth?.user
  const name = displayName(user)
  if (user) {
    page(
      req,
      res,
      "Gatehouse example",
      `<div class="card"><h1>${name ? `Hello, ${escape(name)}` : "Hello"}</h1>
       ${user.email ? `<p>Signed in as <strong>${escape(user.email)}</strong>.</p>` : "<p>You are signed in.</p>"}
       <p>On your account page you can set up two-step verification, add a passkey, change your
       password and see the devices you are signed in on.</p>
       <p class="actions"><a class="button" href="/auth/account">Your account</a><a class="button secondary" href="/dashboard">Dashboard</a></p></div>`,
    )
    return
  }
  page(
    req,
    res,
    "Gatehouse example",
    `<div class="card"><h1>Gatehouse example</h1><p>You are not signed in. Use <strong>demo</strong> / <strong>demo</strong>, or create an account.</p>
     <p class="actions"><a class="button" href="/auth/signin">Sign in</a><a class="button secondary" href="/auth/signup">Create an account</a></p></div>
     <div class="card"><h2>What to try</h2><ul class="features">
     <li><strong>Username and password</strong>: the demo user, demo / demo.</li>
     <li><strong>Password account</strong>: create an account; the mail to confirm it is printed on the server's console.</li>
     <li><strong>Magic link or code</strong>: type your email on the sign-in page; the link and the code are printed on the console.</li>
     <li><strong>Passkey</strong>: after a magic link, create one; then sign in with it (open the site as http://localhost).</li>
     <li><strong>Two-step verification</strong>: signed in, turn it on from your account page with an authenticator app.</li>
     <li><a href="/dashboard">The dashboard</a> is for signed-in users only.</li>
     </ul></div>`,
  )
})

app.get("/dashboard", requireAuth(authConfig), (req, res) => {
  const name = displayName(req.auth.user)
  page(
    req,
    res,
    "Dashboard",
    `<div class="card"><h1>Dashboard</h1><p>Only signed-in users see this${name ? `, ${escape(name)}` : ""}.</p><p><a href="/">Home</a></p></div>`,
  )
})

app.get("/api/me", requireAuth(authConfig), (req, res) => {
  res.json(req.auth)
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse example on http://localhost:${port} (user "demo", password "demo")`))
}
