/**
 * Sessions and devices' English texts: the error page's for a revocation of other sessions the
 * shared store has not taken yet (`RevocationPending`). The other languages beside this file have
 * exactly these keys (the type checks it, and a test); every text is escaped where it is output.
 */
export const en = {
  "error.RevocationPending.heading": "Not confirmed yet",
  "error.RevocationPending.message": "Your other sessions could not be signed out everywhere just now: this server refuses them already and keeps trying. Please try again in a moment to confirm.",
  "devices.label": "{browser} on {system}",
  "devices.place.loopback": "This computer",
  "devices.place.private": "Local network",
} as const
