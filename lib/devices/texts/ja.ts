/** Sessions and devices' Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "error.RevocationPending.heading": "まだ確定していません",
  "error.RevocationPending.message": "ほかのセッションを今すぐすべての場所でログアウトできませんでした。このサーバーではすでに拒否しており、引き続き試行しています。確定するため、しばらくしてからもう一度お試しください。",
  "devices.label": "{system} の {browser}",
  "devices.place.loopback": "このコンピューター",
  "devices.place.private": "ローカルネットワーク",
}
