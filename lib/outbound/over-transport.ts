/**
 * A built-in provider's fetch that only mends its server's wire format (Twitch, TikTok and VK
 * rewrite their token request or answer) is a layer over the network, not a network path of its
 * own. When the app gave such a provider no fetch, its `[customFetch]` carries `overTransport`:
 * the same layer built over any base fetch. fetch.ts then runs that layer over Gatehouse's own
 * transport, so every limit holds for these providers too: the body cap, the connect and total
 * timeouts, the redirect rule and the connect-time address check. A `[customFetch]` without the
 * mark is the app's own network path (see app-fetch.ts for what is enforced on it).
 */
export const overTransport: unique symbol = Symbol.for("gatehouse.over-transport")

export type Layer = (base: typeof fetch) => typeof fetch

export type LayeredFetch = typeof fetch & { [overTransport]?: Layer }

/** The layer over `fallback` (used only when called directly), marked so that providers run it over the transport. */
export function layered(layer: Layer, fallback: typeof fetch): LayeredFetch {
  return Object.assign(layer(fallback), { [overTransport]: layer })
}

/** The layer a provider's `[customFetch]` carries, if it is one. */
export function layerOf(fetchImpl: typeof fetch | undefined): Layer | undefined {
  return (fetchImpl as LayeredFetch | undefined)?.[overTransport]
}
