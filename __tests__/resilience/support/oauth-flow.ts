/**
 * A browser's OAuth round trip with plain fetch (cookies carried by hand), so hundreds can run in
 * parallel and a sign-in started at one app can finish at another.
 */
function pairs(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.split(";")[0] as string)
}

export interface Started {
  cookie: string
  /** The callback path and query the provider sent the browser back to. */
  callback: string
}

/** CSRF, `POST signin/<id>`; returns that answer (a 302 to the provider, or an error redirect). */
export async function postSignin(site: string, providerId: string): Promise<{ response: Response; cookies: string[] }> {
  const csrf = await fetch(`${site}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookies = pairs(csrf)
  const response = await fetch(`${site}/auth/signin/${providerId}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookies.join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken }),
  })
  return { response, cookies: [...cookies, ...pairs(response)] }
}

/** Up to the provider's instant approval: the cookies and the callback path to finish with. */
export async function startAt(site: string, providerId: string): Promise<Started> {
  const { response, cookies } = await postSignin(site, providerId)
  if (response.status !== 302) throw new Error(`sign-in start answered ${response.status}`)
  const approved = await fetch(response.headers.get("location") as string, { redirect: "manual" })
  const back = new URL(approved.headers.get("location") as string)
  return { cookie: cookies.join("; "), callback: `${back.pathname}${back.search}` }
}

/** The callback at `site`: where it redirects, and whether it set a session. */
export async function finishAt(site: string, started: Started): Promise<{ status: number; location: URL; signedIn: boolean }> {
  const response = await fetch(`${site}${started.callback}`, { redirect: "manual", headers: { cookie: started.cookie } })
  await response.arrayBuffer()
  const signedIn = response.headers.getSetCookie().some((line) => /^authjs\.session-token(\.\d+)?=[^;]+/.test(line))
  return { status: response.status, location: new URL(response.headers.get("location") ?? "/", site), signedIn }
}
