// A CommonJS consumer of the built package (run by require.test.ts with plain `node`): it
// require()s Gatehouse's entry points through the package's `exports` (a self-reference, as an
// installed copy would resolve), serves one CSRF request from an Express app and prints the result.
/* eslint-disable @typescript-eslint/no-require-imports */
"use strict"

const http = require("node:http")
const express = require("express")
const gatehouse = require("gatehouse")
const Credentials = require("gatehouse/providers/credentials")
const { MemoryAdapter } = require("gatehouse/adapters/memory")
const jwt = require("gatehouse/jwt")
const core = require("gatehouse/core")
const errors = require("gatehouse/errors")
const { RedisStore } = require("gatehouse/stores/redis")

const { authRouter, authSession, requireAuth } = gatehouse
// A default export comes through require() as the module namespace's `default` (the README says so).
const credentialsProvider = Credentials.default({
  credentials: { username: {}, password: {} },
  authorize: async () => null,
})

const config = {
  secret: "cjs-consumer-secret-3f9a1c7e5b2d4068",
  logLevel: "silent",
  adapter: MemoryAdapter(),
  session: { strategy: "cookie" },
  providers: [credentialsProvider],
}

const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/private", requireAuth(config), (_req, res) => res.send("private"))

const server = app.listen(0, "127.0.0.1", async () => {
  const { port } = server.address()
  try {
    const answer = await new Promise((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/auth/csrf" }, (res) => {
          let body = ""
          res.setEncoding("utf8")
          res.on("data", (chunk) => (body += chunk))
          res.on("end", () => resolve({ status: res.statusCode, body, cookies: res.headers["set-cookie"] ?? [] }))
        })
        .on("error", reject)
    })
    const token = await jwt.encode({ token: { sub: "u1" }, secret: config.secret, salt: "authjs.session-token" })
    const opened = await jwt.decode({ token, secret: config.secret, salt: "authjs.session-token" })
    console.log(
      JSON.stringify({
        status: answer.status,
        csrfToken: JSON.parse(answer.body).csrfToken,
        cookie: answer.cookies.map((line) => line.split("=")[0]),
        exports: {
          gatehouse: ["authRouter", "authSession", "requireAuth", "getSession"].filter((name) => typeof gatehouse[name] === "function"),
          jwt: ["encode", "decode", "getToken"].filter((name) => typeof jwt[name] === "function"),
          core: typeof core.Auth,
          errors: typeof errors.AuthError,
          stores: typeof RedisStore,
        },
        jwtRoundTrip: opened && opened.sub,
        credentialsRequire: { namespace: typeof Credentials, default: typeof Credentials.default },
      }),
    )
  } catch (error) {
    console.error(error)
    process.exitCode = 1
  } finally {
    server.close()
  }
})
