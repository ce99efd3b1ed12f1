/**
 * A browser for identity-provider-two-processes.test.ts, where one browser visits several sites:
 * the provider (one site, `127.0.0.1`, served by two processes) and its relying parties (on
 * `localhost`). Cookies are kept per host name, as browsers keep them (the port does not count), so
 * the provider's processes share the browser's cookies and the relying parties have their own.
 * Redirects are followed one by one (fetch with `redirect: "manual"`). `pin` sends the requests
 * meant for one origin to another: the test choosing which process of the provider serves this
 * browser (a load balancer would), while the URLs the browser sees stay the site's.
 */
export interface Page {
  status: number
  /** The URL as the browser has it (the site's, whichever process answered). */
  url: string
  /** Location, resolved against `url`. */
  location?: string
  body: string
  headers: Headers
}

export interface RequestInit {
  method?: string
  form?: Record<string, string>
  headers?: Record<string, string>
}

export class SiteBrowser {
  private readonly jars = new Map<string, Map<string, string>>()
  private readonly routes = new Map<string, string>()
  /** The URLs requested, as sent (after `pin`), in order. */
  readonly sent: string[] = []

  /** Requests for `from` (an origin) go to `to` from now on; `to` undefined: to `from` again. */
  pin(from: string, to?: string): void {
    if (to === undefined || to === from) this.routes.delete(from)
    else this.routes.set(from, to)
  }

  private jar(url: URL): Map<string, string> {
    let jar = this.jars.get(url.hostname)
    if (!jar) {
      jar = new Map()
      this.jars.set(url.hostname, jar)
    }
    return jar
  }

  /** The cookie names the browser holds for `url`'s host. */
  cookieNames(url: string): string[] {
    return [...this.jar(new URL(url)).keys()]
  }

  private keep(jar: Map<string, string>, headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute) || /^\s*max-age=0\b/i.test(attribute))
      if (expired || value === "") jar.delete(name)
      else jar.set(name, value)
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Page> {
    const seen = new URL(url)
    const jar = this.jar(seen)
    const target = new URL(`${this.routes.get(seen.origin) ?? seen.origin}${seen.pathname}${seen.search}`)
    this.sent.push(target.href)
    const response = await fetch(target, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      redirect: "manual",
      headers: {
        accept: "text/html",
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(init.form && { "content-type": "application/x-www-form-urlencoded" }),
        ...init.headers,
      },
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    })
    this.keep(jar, response.headers)
    const location = response.headers.get("location")
    return { status: response.status, url, ...(location && { location: new URL(location, url).href }), body: await response.text(), headers: response.headers }
  }

  /** Follows redirects from `url` until a page (not a redirect), or a redirect to a URL `stop` picks: that answer. */
  async follow(url: string, stop: (url: URL) => boolean, init: RequestInit = {}): Promise<Page> {
    let page = await this.request(url, init)
    for (let hops = 0; page.location && hops < 15; hops++) {
      if (stop(new URL(page.location))) return page
      page = await this.request(page.location)
    }
    return page
  }
}
