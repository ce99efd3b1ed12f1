// The custom-pages example: the app's own sign-in page (an EJS template in ./views) posting to
// the app's own routes, which call Gatehouse's form actions (signInAction / signOutAction).
// `pages.signIn` points at it, so requireAuth and Gatehouse's own errors send users there.
// The app's own account page (`pages.account`) is drawn the same way: its forms post to the app's
// routes, which call Gatehouse's server helpers (listSessions, revokeSession, revokeOtherSessions,
// unlinkAccount, deleteAccount). Users and sessions live in the memory adapter (the helpers need
// one); the app reads the user's linked sign-in methods from it.
// Run it with `node examples/custom-pages/index.js` and open http://localhost:3000
// (user "demo", password "demo").
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import {
  AuthError,
  authRouter,
  authSession,
  deleteAccount,
  listSessions,
  requireAuth,
  revokeOtherSessions,
  revokeSession,
  signIn,
  signInAction,
  signOutAction,
  unlinkAccount,
} from "gatehouse"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import Credentials from "gatehouse/providers/credentials"

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

const USERS = [{ id: "1", username: "demo", passwordHash: await hashPassword("demo"), name: "Demo User", email: "demo@example.com" }]
/** Checked for unknown usernames, so they take as long as a wrong password. */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"))

export const adapter = MemoryAdapter()

export const authConfig = {
  adapter,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      async authorize({ username, password }) {
        const user = USERS.find((candidate) => candidate.username === username)
        const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password)
        return user && ok ? { id: user.id, name: user.name, email: user.email } : null
      },
    }),
  ],
  // Gatehouse redirects here (with callbackUrl and error) instead of showing its built-in page.
  pages: { signIn: "/signin", account: "/account" },
}

/** What the page says for an `error` Gatehouse put in the URL; unknown values get the generic text. */
const MESSAGES = {
  CredentialsSignin: "Wrong username or password.",
  SessionRequired: "Please sign in to see that page.",
  MissingCSRF: "The form expired. Please try again.",
  RateLimited: "Too many attempts. Wait a few minutes and try again.",
  RecentSignInRequired: "For your security, sign in again, then delete your account.",
}

/** What the account page says after one of its actions (`?done=`) or for a refusal (`?error=`). */
const ACCOUNT_DONE = { unlink: "Disconnected.", revoke: "That device is signed out.", "revoke-others": "Every other device is signed out." }
const ACCOUNT_ERRORS = {
  LastSignInMethod: "That is your only way to sign in; add another one before removing it.",
  SignInMethodNotFound: "That sign-in method is not part of your account.",
  SessionNotFound: "That device is not signed in to your account.",
  InvalidRequest: "That request was not valid.",
  Unconfirmed: "Tick the box to confirm.",
  MissingCSRF: MESSAGES.MissingCSRF,
}
const GENERIC = "Something went wrong. Please try again."

/**
 * Where to go after signing in, as a path on this site: `callbackUrl` arrives as an absolute URL
 * (requireAuth writes one); another site's URL, or anything odd, goes home. (Gatehouse applies
 * its own same-origin rules to `redirectTo` as well; this keeps the page's own redirect safe.)
 */
function localPath(value, req) {
  if (typeof value !== "string" || !value) return "/"
  if (/^\/(?![/\\])/.test(value)) return value
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.host === req.get("host") ? url.pathname + url.search : "/"
  } catch {
    return "/"
  }
}

export const app = express()
app.set("views", fileURLToPath(new URL("./views", import.meta.url)))
app.set("view engine", "ejs")
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))
app.use(express.urlencoded({ extended: false, limit: "10kb" }))

function renderSignIn(res, status, { username = "", redirectTo = "/", fieldErrors = {}, formErrors = [] } = {}) {
  res.status(status).set("Cache-Control", "no-store").render("signin", { title: "Sign in", username, redirectTo, fieldErrors, formErrors })
}

app.get("/", (_req, res) => res.render("home", { title: "Acme" }))

app.get("/signin", (req, res) => {
  const redirectTo = localPath(req.query.callbackUrl, req)
  if (req.auth) return res.redirect(redirectTo)
  const error = typeof req.query.error === "string" ? req.query.error : undefined
  renderSignIn(res, 200, { redirectTo, formErrors: error ? [MESSAGES[error] ?? GENERIC] : [] })
})

app.post("/signin", async (req, res, next) => {
  const username = typeof req.body.username === "string" ? req.body.username.trim() : ""
  const redirectTo = localPath(req.body.redirectTo, req)
  // The app's own checks first: each empty field gets its message next to it.
  const fieldErrors = {}
  if (!username) fieldErrors.username = ["Enter your username."]
  if (typeof req.body.password !== "string" || !req.body.password) fieldErrors.password = ["Enter your password."]
  if (Object.keys(fieldErrors).length) return renderSignIn(res, 400, { username, redirectTo, fieldErrors })
  try {
    const result = await signInAction(req, res, authConfig)
    // Bad form input (e.g. an unknown providerId): nothing was written, show the errors.
    if (result.failed) return renderSignIn(res, 400, { username, redirectTo, fieldErrors: result.fieldErrors, formErrors: result.formErrors })
    // Success: signInAction set the session cookie and redirected to redirectTo.
  } catch (error) {
    if (!(error instanceof AuthError)) return next(error)
    const status = error.type === "CredentialsSignin" ? 401 : error.type === "RateLimited" ? 429 : 400
    renderSignIn(res, status, { username, redirectTo, formErrors: [MESSAGES[error.type] ?? GENERIC] })
  }
})

app.post("/signout", async (req, res, next) => {
  try {
    const result = await signOutAction(req, res, authConfig)
    if (result.failed) res.status(400).send("Bad request")
  } catch (error) {
    next(error)
  }
})

// A link to "sign in" from anywhere: signIn() without a provider redirects to pages.signIn,
// with callbackUrl set to where the user came from.
app.get("/login", (req, res, next) => signIn(req, res, authConfig, undefined, { redirectTo: "/account" }).catch(next))

// The app's own account page, and its actions through Gatehouse's server helpers. The helpers
// refuse a cross-site post (MissingCSRF) and throw named errors the page explains.
const userIdOf = async (req) => (await adapter.getUserByEmail(req.auth.user.email))?.id

app.get("/account", requireAuth(authConfig), async (req, res, next) => {
  try {
    const userId = await userIdOf(req)
    const methods = userId ? await adapter.listAccountsByUserId(userId) : []
    const devices = await listSessions(req, authConfig)
    const pick = (table, key) => (typeof req.query[key] === "string" ? (table[req.query[key]] ?? (key === "error" ? GENERIC : undefined)) : undefined)
    res.set("Cache-Control", "no-store").render("account", { title: "Your account", user: req.auth.user, methods, devices, done: pick(ACCOUNT_DONE, "done"), error: pick(ACCOUNT_ERRORS, "error") })
  } catch (error) {
    next(error)
  }
})

/** Runs one account action; a refusal Gatehouse names goes back to the page with its message. */
const accountAction = (name, work) => async (req, res, next) => {
  try {
    if ((await work(req, res)) !== false) res.redirect(`/account?done=${name}`)
  } catch (error) {
    if (!(error instanceof AuthError)) return next(error)
    if (error.type === "SessionRequired") return res.redirect(`/signin?${new URLSearchParams({ callbackUrl: "/account" })}`)
    if (error.type === "RecentSignInRequired") return res.redirect(`/signin?${new URLSearchParams({ callbackUrl: "/account", error: error.type })}`)
    res.redirect(`/account?${new URLSearchParams({ error: error.type })}`)
  }
}

app.post("/account/unlink", requireAuth(authConfig), accountAction("unlink", (req, res) => unlinkAccount(req, res, authConfig, String(req.body.provider ?? ""))))
app.post("/account/devices/revoke", requireAuth(authConfig), accountAction("revoke", (req) => revokeSession(req, authConfig, String(req.body.id ?? ""))))
app.post("/account/devices/revoke-others", requireAuth(authConfig), accountAction("revoke-others", (req) => revokeOtherSessions(req, authConfig)))
app.post(
  "/account/delete",
  requireAuth(authConfig),
  accountAction("delete", async (req, res) => {
    if (req.body.confirm !== "yes") {
      res.redirect("/account?error=Unconfirmed")
      return false
    }
    await deleteAccount(req, res, authConfig) // ends every session of the user and clears this cookie
    res.redirect("/?deleted=1")
    return false
  }),
)

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse custom-pages example on http://localhost:${port} (user "demo", password "demo")`))
}
