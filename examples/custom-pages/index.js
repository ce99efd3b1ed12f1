// The custom-pages example: the app's own sign-in page (an EJS template in ./views) posting to
// the app's own routes, which call Gatehouse's form actions (signInAction / signOutAction).
// `pages.signIn` points at it, so requireAuth and Gatehouse's own errors send users there.
// Run it with `node examples/custom-pages/index.js` and open http://localhost:3000
// (user "demo", password "demo").
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { AuthError, authRouter, authSession, requireAuth, signIn, signInAction, signOutAction } from "gatehouse"
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

export const authConfig = {
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
  pages: { signIn: "/signin" },
}

/** What the page says for an `error` Gatehouse put in the URL; unknown values get the generic text. */
const MESSAGES = {
  CredentialsSignin: "Wrong username or password.",
  SessionRequired: "Please sign in to see that page.",
  MissingCSRF: "The form expired. Please try again.",
  RateLimited: "Too many attempts. Wait a few minutes and try again.",
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

app.get("/account", requireAuth(authConfig), (req, res) => res.render("account", { title: "Your account", user: req.auth.user }))

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse custom-pages example on http://localhost:${port} (user "demo", password "demo")`))
}
