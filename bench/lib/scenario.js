// What a scenario is: one library doing one job, loaded on its own server process.
//
// Each bench/scenarios/<library>.js default-exports an array of these:
//
// {
//   id: "authjs-get-session",          // short, unique; `--only` picks scenarios by id
//   name: "Auth.js getSession (cookie)", // the table's label
//   library: "authjs",                  // bare | gatehouse | authjs | passport | express-openid-connect
//                                        // | oidc-provider | jose
//   job: "cookie-read",                 // what is compared across libraries (see JOBS)
//   server: "/abs/path/bench/servers/x.js",  // started as its own process; ends with serve(app)
//   env: { ... },                       // added to the server's environment
//   services: async () => ({ env, close }),  // optional: started first (an IdP...), env merged in
//   prepare: async ({ origin }) => prepared, // signs in through the library's own flow
//   requests: (prepared, tally) => [ ...autocannon requests ],  // what one connection repeats;
//                                        // onResponse hooks call tally.fail(reason) for a response
//                                        // whose status is fine but whose content is not (a sign-in
//                                        // redirected to the error page)
//   requestsPerOp: 1,                   // 2 for a sign-in (CSRF token, then the POST)
//   verify: async ({ origin, prepared }) => {},  // throws unless the loaded request succeeds as the
//                                        // signed-in user (so an error path is never measured)
// }
//
// Servers answer `GET /protected` with 200 and `{ "email": ... }` for a signed-in user (401
// otherwise); bare Express answers it without any check.

export const JOBS = {
  bare: "bare Express route (the ceiling)",
  "cookie-read": "protected route, cookie session",
  "session-endpoint": "GET <base>/session, cookie session",
  "db-read-pg": "protected route, database session on PostgreSQL",
  "db-read-sqlite": "protected route, database session on SQLite",
  signin: "credentials sign-in (CSRF token + callback POST)",
  "permission-cookie": "protected route, requireAuth({ permission }), cookie session, organizations on",
  "permission-pg": "protected route, requireAuth({ permission }), database session on PostgreSQL, organizations on",
  "api-key": "protected route, requireAuth({ apiKey: true }), API key in Authorization: Bearer, memory adapter",
  "oidc-token": "token endpoint, client credentials for a JWT access token (resource + scope, Basic auth)",
  "access-token": "protected route, JWT access token (RS256) in Authorization: Bearer, audience + scope",
}

/** Checks the shape of a scenario, so a mistake fails before anything starts. */
export function checkScenario(scenario) {
  const missing = ["id", "name", "library", "job", "server", "prepare", "requests", "verify"].filter((key) => scenario[key] === undefined)
  if (missing.length) throw new Error(`scenario ${scenario.id ?? "?"} lacks ${missing.join(", ")}`)
  if (!(scenario.job in JOBS)) throw new Error(`scenario ${scenario.id}: unknown job ${scenario.job}`)
  return { requestsPerOp: 1, env: {}, ...scenario }
}
