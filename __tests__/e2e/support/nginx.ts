/**
 * A private nginx (Debian's /usr/sbin/nginx) for the scale-out browser run: its own prefix, config,
 * self-signed certificate (openssl) and logs in a temporary directory, TLS on a free 127.0.0.1 port,
 * one worker, and plain round robin over the given backends (no keep-alive to them, so every request
 * is its own pick). It sets X-Forwarded-For/-Proto/-Host as a TLS-terminating proxy does. The
 * passkey script under /auth/assets/ is balanced by a pool of its own, so the pages' requests do not
 * shift the main rotation; /favicon.ico is answered by nginx. The access log records, per request,
 * the backend that answered.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { createServer } from "node:net"
import { freePort } from "../../helpers/ports.js"

const run = promisify(execFile)
export const NGINX = "/usr/sbin/nginx"

export interface Nginx {
  port: number
  /** `[method, path, backend port]` of every request to the main pool so far, in order. */
  requests(): Array<{ method: string; path: string; backend: number }>
  stop(): Promise<void>
}


export async function reserveNginxPort(): Promise<number> {
  return freePort()
}

export async function startNginx(port: number, serverName: string, backends: number[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-nginx-"))
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${serverName}`, "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")])
  // Strict round robin: a slow answer under load never takes a process out of the pool
  // (max_fails=0) nor sends the request again to the other one (proxy_next_upstream off), either
  // of which would break the alternation the tests read from the log.
  const upstream = (name: string) => `upstream ${name} {\n${backends.map((backend) => `    server 127.0.0.1:${backend} max_fails=0;`).join("\n")}\n  }`
  const proxied = (pool: string) => `proxy_pass http://${pool};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_next_upstream off;
      proxy_buffer_size 64k;
      proxy_buffers 8 64k;`
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 256; }
http {
  access_log off;
  log_format backends '$request_method $uri $upstream_addr';
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  large_client_header_buffers 4 32k;
  ${upstream("gatehouse")}
  ${upstream("assets")}
  server {
    listen 127.0.0.1:${port} ssl;
    server_name ${serverName};
    ssl_certificate ${join(dir, "cert.pem")};
    ssl_certificate_key ${join(dir, "key.pem")};
    location = /favicon.ico { access_log off; return 204; }
    location /auth/assets/ {
      ${proxied("assets")}
    }
    location / {
      access_log ${join(dir, "backends.log")} backends;
      ${proxied("gatehouse")}
    }
  }
}
`,
  )
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const end = Date.now() + 10_000
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, "127.0.0.1")
      socket.once("listening", () => socket.close(() => resolve(false)))
      socket.once("error", () => resolve(true))
    })
    if (up) break
    if (child.exitCode !== null || Date.now() > end) throw new Error(`nginx did not start: ${stderr}`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
  return {
    port,
    requests() {
      let text: string
      try {
        text = readFileSync(join(dir, "backends.log"), "utf8")
      } catch {
        return []
      }
      return text
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [method = "", path = "", address = ""] = line.split(" ")
          return { method, path, backend: Number(address.split(":").pop()) }
        })
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once("exit", done))
        child.kill("SIGQUIT")
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
