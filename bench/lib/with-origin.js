// For servers that must know their own origin before they can be built (an OIDC provider needs
// its issuer URL, express-openid-connect its baseURL), while serve() listens on a port the system
// picks: `serve(withOrigin(async (origin) => app))` listens first, builds the app for that origin,
// attaches it to the listening node:http server (what app.listen does), then lets serve() report
// ready. Requests arriving before that are impossible: the runner waits for the ready message.
import { createServer } from "node:http"

export function withOrigin(build) {
  return {
    listen(port, host, ready) {
      const server = createServer()
      server.listen(port, host, () => {
        build(`http://${host}:${server.address().port}`).then(
          (handler) => {
            server.on("request", handler)
            ready()
          },
          (error) => {
            console.error(error)
            process.exit(1)
          },
        )
      })
      return server
    },
  }
}
