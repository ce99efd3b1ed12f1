// Passport + express-session, written the usual way: the default MemoryStore, passport-local
// against an in-memory user, the user id serialized into the session and looked up again on every
// request by deserializeUser.
import express from "express"
import session from "express-session"
import passport from "passport"
import { Strategy as LocalStrategy } from "passport-local"
import { serve } from "../lib/serve.js"

const users = new Map([["1", { id: "1", email: "bench@example.com", password: "bench" }]])

passport.use(
  new LocalStrategy((username, password, done) => {
    const user = [...users.values()].find((candidate) => candidate.email === username)
    if (!user || user.password !== password) return done(null, false)
    return done(null, user)
  }),
)
passport.serializeUser((user, done) => done(null, user.id))
passport.deserializeUser((id, done) => done(null, users.get(id) ?? false))

const app = express()
app.use(
  session({
    secret: "gatehouse-bench-passport-session-secret",
    resave: false,
    saveUninitialized: false,
  }),
)
app.use(passport.initialize())
app.use(passport.session())

app.post("/login", express.urlencoded({ extended: false }), passport.authenticate("local"), (req, res) => {
  res.json({ email: req.user.email })
})

app.get("/protected", (req, res) => {
  if (!req.isAuthenticated()) return res.status(401).json({ error: "unauthorized" })
  res.json({ email: req.user.email })
})

serve(app)
