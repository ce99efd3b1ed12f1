// The single-page app example: an Express API with Gatehouse, and a React app built by Vite
// (examples/spa/web) that signs in through `gatehouse/client` and `gatehouse/react`, served by
// the same Express app (same origin: the session cookie and the CSRF token need nothing more).
//   - password accounts (Password), with a demo account created at start-up;
//   - one-time codes by email (Nodemailer: the app asks for the code, the user types it);
//   - passkeys (Passkey): added by a signed-in user, then sign-in by autofill or a button;
//   - two-step verification (twoFactor): set up on Gatehouse's own page, asked by the app;
//   - the devices the user is signed in on, from the app (listSessions, revokeSession);
//   - GET /api/notes, a JSON route for signed-in users only (requireAuth).
// Build and run (see examples/spa/README.md):
//   npm run build && npx vite build examples/spa/web && node examples/spa/server.js
// then open http://localhost:3000 (passkeys need "localhost", not 127.0.0.1).
// Users and sessions live in the embedded SQLite database (examples/spa/gatehouse.sqlite, or
// DATABASE_URL). Mails go through SMTP_URL when it is set (EMAIL_FROM for the sender); without
// it, each mail (and its code) is printed on this console.
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { join, resolve } from "node:path"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import Password, { hashPassword } from "gatehouse/providers/password"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"

const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${fileURLToPath(new URL("./gatehouse.sqlite", import.meta.url))}`
export const adapter = SqlAdapter(databaseUrl)
await migrate(adapter.db)

/** The demo account, with a confirmed address, so the app can be tried without a mail first. */
export const DEMO = { email: "demo@example.com", password: "demo-password", name: "Demo User" }
if (!(await adapter.getUserByEmail(DEMO.email))) {
  const user = await adapter.createUser({ id: randomUUID(), email: DEMO.email, emailVerified: new Date(), name: DEMO.name })
  await adapter.setPasswordHash(user.id, await hashPassword(DEMO.password))
  await adapter.linkAccount({ userId: user.id, type: "credentials", provider: "password", providerAccountId: user.id })
}

// Mail: by SMTP when SMTP_URL is set, otherwise printed on this console (for development).
const FROM = process.env.EMAIL_FROM ?? "Gatehouse SPA example <no-reply@example.com>"
const smtp = process.env.SMTP_URL ? Nodemailer({ server: process.env.SMTP_URL, from: FROM }) : undefined

/** The sign-in mail, printed: the address and the one-time code the app asks for (and the link). */
async function printSignInMail({ identifier, url, code }) {
  console.log(`\n[mail] To: ${identifier}\n[mail] Code: ${code}\n[mail] Sign in: ${url}\n`)
}

/** A password account's mail (confirm the address, reset the password), printed. */
async function printPasswordMail({ to, subject, url }) {
  console.log(`\n[mail] To: ${to}\n[mail] Subject: ${subject}\n[mail] Open: ${url}\n`)
}

export const authConfig = {
  adapter,
  providers: [
    // Password accounts (12 characters or more); sign-up and resets use Gatehouse's own pages.
    Password(smtp ? { email: smtp } : { sendMail: printPasswordMail }),
    // Email sign-in: the app asks for a mail, then for the 6-digit code in it (the link works too).
    smtp ?? Nodemailer({ sendVerificationRequest: printSignInMail }),
    // Passkeys: a signed-in user adds one from the app's home page; then signs in with it.
    Passkey(),
  ],
  // Two-step verification: set up from the account page (/auth/account); every sign-in then asks
  // for a code, which the app's own "second step" page sends (verifySecondFactor).
  twoFactor: { issuer: "Gatehouse SPA example" },
  theme: { brandColor: "#0f766e", appName: "Gatehouse SPA example" },
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

// The app's API: JSON for signed-in users, 401 `SessionRequired` JSON otherwise.
app.get("/api/notes", requireAuth(authConfig), (req, res) => {
  res.json({
    user: req.auth.user.email,
    notes: [
      { id: 1, text: "This list came from GET /api/notes, a route behind requireAuth." },
      { id: 2, text: "Sign out in another tab: this one follows." },
    ],
  })
})

// The built app: examples/spa/web/dist by default (`npx vite build examples/spa/web`), or SPA_DIST.
const webRoot = resolve(process.env.SPA_DIST ?? fileURLToPath(new URL("./web/dist", import.meta.url)))
const indexFile = join(webRoot, "index.html")
if (existsSync(indexFile)) {
  const indexHtml = readFileSync(indexFile, "utf8")
  // Vite's hashed assets never change under one name; index.html is always fetched anew.
  app.use("/assets", express.static(join(webRoot, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }))
  app.use(express.static(webRoot, { index: false }))
  // Any other GET for a page (a browser asks for text/html) is the app's: it draws every screen.
  app.use((req, res, next) => {
    if (req.method !== "GET" || !req.headers.accept?.includes("text/html")) return next()
    res.set("Cache-Control", "no-cache").type("html").send(indexHtml)
  })
} else {
  app.get("/", (req, res) => {
    res.status(503).type("text").send(`The app is not built: run "npx vite build examples/spa/web" (see examples/spa/README.md), then restart.\n`)
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse SPA example on http://localhost:${port} (${DEMO.email} / ${DEMO.password})`))
}
