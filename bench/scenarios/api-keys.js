// Issue #31: requireAuth({ apiKey: true }) with a key in `Authorization: Bearer`, on the memory
// adapter with the in-process store and each key's default rate limit (600 a minute) on.
//
// One key alone would be refused (429) after its 600th request of the minute, and the load would
// measure the refusal. So the runner makes KEYS keys (signed in through the credentials form, then
// `POST /auth/api-keys/create` as an app's own page sends it) and the load uses one at a time, the
// next after USES_PER_KEY requests: at any moment one hot key, as one busy client would send it,
// each key under its limit. KEYS × USES_PER_KEY requests fit in one server's life (a server is
// started for each round); a longer run would show 429s in the table's non-2xx column.
import { fileURLToPath } from "node:url"
import { CookieJar, send, verifyProtected } from "../lib/http.js"

const server = fileURLToPath(new URL("../servers/gatehouse-api-key.js", import.meta.url))
const EMAIL = "bench@example.com"
const KEYS = 400
/** Under the default limit of 600 a minute, with room for the verify and warm-up requests. */
const USES_PER_KEY = 500

/** Signs in, then makes the keys through the JSON API (one CSRF token for all). */
async function makeKeys({ origin }) {
  const jar = new CookieJar()
  const csrfToken = async () => (await (await send(jar, `${origin}/auth/csrf`)).json()).csrfToken
  const form = (fields) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: new URLSearchParams(fields).toString() })
  const signedIn = await send(jar, `${origin}/auth/callback/credentials`, form({ csrfToken: await csrfToken(), email: EMAIL, password: "bench", callbackUrl: "/" }))
  if (signedIn.status !== 302) throw new Error(`Gatehouse sign-in answered ${signedIn.status}`)
  const token = await csrfToken()
  const keys = []
  for (let i = 0; i < KEYS; i++) {
    const response = await send(jar, `${origin}/auth/api-keys/create`, form({ csrfToken: token, name: `bench ${i}` }))
    const body = await response.json()
    if (response.status !== 200 || typeof body.key !== "string") throw new Error(`api-keys/create answered ${response.status} ${JSON.stringify(body)}`)
    keys.push(body.key)
  }
  return { keys }
}

/** Every connection's requests draw from one counter: key n serves requests n × USES_PER_KEY onward. */
function keyedRequests(prepared) {
  let sent = 0
  return [
    {
      method: "GET",
      path: "/protected",
      setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${prepared.keys[Math.floor(sent++ / USES_PER_KEY) % prepared.keys.length]}` } }),
    },
  ]
}

export default [
  {
    id: "gatehouse-api-key",
    name: "Gatehouse requireAuth({ apiKey: true }) (Bearer key, memory adapter)",
    library: "gatehouse",
    job: "api-key",
    server,
    prepare: makeKeys,
    requests: keyedRequests,
    // The last key, so the load starts on a key no request has used yet (as a fresh one would).
    verify: ({ origin, prepared }) => verifyProtected(origin, { authorization: `Bearer ${prepared.keys.at(-1)}` }, EMAIL),
  },
]
