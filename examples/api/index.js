// The API example: a JSON API protected by requireAuth (401 JSON when signed out) that also
// accepts bearer tokens. POST /token with a username and password (JSON) answers a token sealed
// with `encode` from gatehouse/jwt; send it as `Authorization: Bearer <token>`. Browsers that
// signed in at /auth/signin use the same API with their session cookie.
// Run it with `AUTH_SECRET=$(openssl rand -base64 33) node examples/api/index.js`, then:
//   TOKEN=$(curl -s -H 'content-type: application/json' -d '{"username":"demo","password":"demo"}' localhost:3000/token | jq -r .token)
//   curl -H "authorization: Bearer $TOKEN" localhost:3000/api/me
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { encode, getToken } from "gatehouse/jwt"

// Tokens are sealed and opened outside the router, so the secret must be known here: without
// AUTH_SECRET (development only) a random one is made for this process.
const secret = process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url")
if (!process.env.AUTH_SECRET) console.warn("AUTH_SECRET is not set: tokens and sessions end when the process restarts.")

/** Bearer tokens have the session cookie's format (a JWE), sealed with its salt: the cookie name. */
const TOKEN_SALT = "authjs.session-token"
/** Seconds a bearer token is valid. */
const TOKEN_MAX_AGE = 60 * 60

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

/** The user for a username and password, or null; the same work whether or not the user exists. */
async function checkCredentials(username, password) {
  if (typeof username !== "string" || typeof password !== "string") return null
  const user = USERS.find((candidate) => candidate.username === username)
  const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password)
  return user && ok ? { id: user.id, name: user.name, email: user.email } : null
}

export const authConfig = {
  secret,
  providers: [
    Credentials({
      credentials: { username: { label: "Username", autocomplete: "username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) => checkCredentials(username, password),
    }),
  ],
}

/**
 * requireAuth's decision for the API: the cookie session (`auth`), else a valid bearer token.
 * The token's claims are kept on the request for the handlers.
 */
async function sessionOrBearer({ request, auth }) {
  if (auth) return true
  const token = await getToken({ req: request, secret, salt: TOKEN_SALT })
  if (!token?.sub) return false
  request.token = token
  return true
}

const protect = requireAuth(authConfig, { authorized: sessionOrBearer })

/** Who is calling: from the session, or from the token's claims. */
function caller(req) {
  if (req.auth) return { ...req.auth.user, via: "session" }
  return { id: req.token.sub, name: req.token.name ?? null, email: req.token.email ?? null, via: "bearer" }
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(express.json({ limit: "10kb" }))

// Issues a bearer token for a username and password. Gatehouse's sign-in rate limit covers
// /auth/callback/credentials only: put your own limiter in front of this route in production.
app.post("/token", async (req, res) => {
  const { username, password } = req.body ?? {}
  const user = await checkCredentials(username, password)
  if (!user) {
    res.status(401).json({ error: { type: "CredentialsSignin", message: "Wrong username or password." } })
    return
  }
  const token = await encode({ token: { sub: user.id, name: user.name, email: user.email }, secret, salt: TOKEN_SALT, maxAge: TOKEN_MAX_AGE })
  res.set("Cache-Control", "no-store").json({ token, token_type: "Bearer", expires_in: TOKEN_MAX_AGE })
})

app.use(authSession(authConfig))

app.get("/api/health", (_req, res) => res.json({ ok: true }))
app.get("/api/me", protect, (req, res) => res.json(caller(req)))

const notes = [{ id: 1, text: "Bearer tokens go in the Authorization header." }]
app.get("/api/notes", protect, (_req, res) => res.json(notes))
app.post("/api/notes", protect, (req, res) => {
  const text = req.body?.text
  if (typeof text !== "string" || !text.trim() || text.length > 500) {
    res.status(400).json({ error: { type: "InvalidRequest", message: "text: 1 to 500 characters" } })
    return
  }
  const note = { id: notes.length + 1, text: text.trim(), author: caller(req).id }
  notes.push(note)
  res.status(201).json(note)
})

// Unknown API paths and errors answer JSON too.
app.use("/api", (_req, res) => res.status(404).json({ error: { type: "NotFound", message: "No such endpoint." } }))
app.use((error, _req, res, _next) => {
  const status = Number.isInteger(error.status) && error.status >= 400 && error.status < 500 ? error.status : 500
  if (status === 500) console.error(error)
  res.status(status).json({ error: { type: status === 500 ? "ServerError" : "InvalidRequest", message: status === 500 ? "Something went wrong." : error.message } })
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse API example on http://localhost:${port} (POST /token with {"username":"demo","password":"demo"})`))
}
