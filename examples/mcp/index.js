// The MCP example: an MCP server (Streamable HTTP, stateless) at POST /mcp that only takes access
// tokens issued by the app's own identity provider (Gatehouse's `oidcProvider`), so any MCP
// client with OAuth support connects to it on its own:
//   1. it calls /mcp without a token and gets 401 with
//      `WWW-Authenticate: Bearer ..., resource_metadata=".../.well-known/oauth-protected-resource/mcp"`;
//   2. it reads that protected resource metadata (RFC 9728): the resource and its authorization
//      server, the app's provider at <origin>/auth/oidc;
//   3. it reads the provider's metadata (RFC 8414, /.well-known/oauth-authorization-server/auth/oidc),
//      registers itself (dynamic client registration, RFC 7591), and sends the user to sign in
//      (demo / demo) and allow it, with PKCE and `resource=<origin>/mcp`;
//   4. it gets an access token for <origin>/mcp (a JWT with the scope notes:read) and calls tools.
// Run it with `node examples/mcp/index.js` (PORT, default 3000; ORIGIN when the app is reached at
// another address than http://localhost:<PORT>), then point an MCP client at http://localhost:3000/mcp
// (examples/mcp/README.md). Users, registered clients and grants live in SQLite (DATABASE_URL,
// default in memory: set AUTH_SECRET and a file to keep them across restarts).
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { authRouter, authSession, oauthMetadata, protectedResourceMetadata, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"

const port = Number(process.env.PORT ?? 3000)
/** Where clients reach the app: the MCP server's resource indicator is `<ORIGIN>/mcp`. */
export const ORIGIN = (process.env.ORIGIN ?? `http://localhost:${port}`).replace(/\/+$/, "")
export const MCP_RESOURCE = `${ORIGIN}/mcp`
/** A plain JSON API of the same notes: another resource, whose tokens the MCP server refuses. */
export const API_RESOURCE = `${ORIGIN}/api`
const MCP_RESOURCE_METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`

export const adapter = SqlAdapter(process.env.DATABASE_URL ?? "sqlite::memory:")
await migrate(adapter.db)

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

// The demo user is a stored user: the identity provider reads the people it issues tokens for
// from the adapter (their email and name are the tokens' claims).
const DEMO = { username: "demo", email: "demo@example.com", name: "Demo User" }
const demoUser = (await adapter.getUserByEmail(DEMO.email)) ?? (await adapter.createUser({ id: crypto.randomUUID(), email: DEMO.email, name: DEMO.name, emailVerified: new Date() }))
const PASSWORDS = new Map([[DEMO.username, { userId: demoUser.id, hash: await hashPassword("demo") }]])
/** Checked for unknown usernames, so they take as long as a wrong password. */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"))

/** The app's data: each user's notes (in memory, for the example). */
export const NOTES = new Map([[demoUser.id, ["Buy milk", "Read RFC 9728", "Connect an MCP client"]]])

export const authConfig = {
  adapter,
  providers: [
    Credentials({
      name: "username and password",
      credentials: { username: { label: "Username", autocomplete: "username" }, password: { label: "Password", type: "password" } },
      async authorize({ username, password }) {
        const entry = typeof username === "string" ? PASSWORDS.get(username) : undefined
        const ok = await verifyPassword(entry?.hash ?? DUMMY_HASH, password)
        if (!entry || !ok) return null
        const user = await adapter.getUser(entry.userId)
        return user && { id: user.id, name: user.name, email: user.email }
      },
    }),
  ],
  oidcProvider: {
    // MCP clients register themselves (RFC 7591): public clients with PKCE, redirect URIs of
    // their own; they may get tokens for the MCP server's scopes only.
    registration: true,
    resources: { [MCP_RESOURCE]: { scopes: ["notes:read"] }, [API_RESOURCE]: { scopes: ["notes:read"] } },
  },
}

/** An MCP server for one request (stateless): its tool answers for the user the token is for. */
function mcpServerFor(userId) {
  const server = new McpServer({ name: "gatehouse-notes", version: "1.0.0" })
  server.registerTool("list-notes", { title: "List notes", description: "Lists the signed-in user's notes." }, async () => {
    const user = await adapter.getUser(userId)
    const notes = NOTES.get(userId) ?? []
    const text = `Notes of ${user?.name ?? "unknown"} <${user?.email ?? "?"}>:\n${notes.map((note) => `- ${note}`).join("\n") || "(none)"}`
    return { content: [{ type: "text", text }] }
  })
  return server
}

export const app = express()
// The provider's metadata where MCP clients look for it (RFC 8414 and RFC 9728), at the root.
app.use(oauthMetadata(authConfig))
app.use(protectedResourceMetadata(authConfig, { resource: MCP_RESOURCE, name: "Gatehouse notes (MCP)" }))
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

app.get("/", (req, res) => {
  const who = req.auth?.user?.email
  res.type("html").send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse MCP example</title></head><body>
<h1>Gatehouse MCP example</h1>
<p>MCP server: <code>${MCP_RESOURCE}</code> (Streamable HTTP, OAuth). ${who ? `Signed in as ${who}.` : "Not signed in (demo / demo)."}</p>
<p><a href="/auth/connected-apps">Connected apps</a> · <a href="/auth/signin">Sign in</a></p></body></html>`)
})

// The MCP server: only access tokens for this resource with notes:read; without one, 401 and
// the metadata's address, which is how a client learns where to get one.
const mcpAuth = requireAuth(authConfig, { accessToken: { audience: MCP_RESOURCE, scope: "notes:read", only: true, resourceMetadata: MCP_RESOURCE_METADATA } })

// Browser-based clients (the MCP Inspector) call /mcp from their own origin: bearer tokens, no
// cookies, so any origin may; they must read WWW-Authenticate to find the metadata.
app.use("/mcp", (req, res, next) => {
  res.set({ "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id" })
  if (req.method !== "OPTIONS") return next()
  res.set({ "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "Authorization, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id", "Access-Control-Max-Age": "86400" })
  res.status(204).end()
})

app.post("/mcp", mcpAuth, express.json({ limit: "1mb" }), async (req, res, next) => {
  // `req.auth` is Gatehouse's (user, via "accessToken", accessToken: { clientId, scopes, ... }),
  // not the SDK's AuthInfo: the server gets what it needs from it here.
  const server = mcpServerFor(req.auth.user.id)
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
  res.on("close", () => {
    void transport.close()
    void server.close()
  })
  try {
    await server.connect(transport)
    await transport.handleRequest(req, res, req.body)
  } catch (error) {
    next(error)
  }
})

// The same notes as JSON, for tokens issued for <origin>/api (or the app's own signed-in pages).
app.get("/api/notes", requireAuth(authConfig, { accessToken: { audience: API_RESOURCE, scope: "notes:read" } }), (req, res) => {
  res.json({ notes: NOTES.get(req.auth.user.id) ?? [] })
})

// Stateless: no server-sent event stream and no session to end.
app.all("/mcp", mcpAuth, (req, res) => {
  res.status(405).set("Allow", "POST").json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null })
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  app.listen(port, () => console.log(`Gatehouse MCP example: MCP server at ${MCP_RESOURCE} (user "demo", password "demo")`))
}
