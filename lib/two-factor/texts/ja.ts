/** Two-factor sign-in's Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "signin.error.TwoFactorCodeInvalid": "コードが正しくありません。認証アプリを確認して、もう一度お試しください。",
  "signin.error.TwoFactorCodeReplayed": "このコードはすでに使用されています。アプリに次のコードが表示されるまでお待ちください。",
  "signin.error.TwoFactorExpired": "ログインに時間がかかりすぎました。もう一度ログインしてください。",
  "signin.error.RecoveryCodeUsed": "この復旧コードはすでに使用されています。各コードは一度だけ使えます。",

  "twoFactor.heading": "2段階認証",
  "twoFactor.message": "認証アプリに表示されている6桁のコードを入力してください。",
  "twoFactor.code.label": "コード",
  "twoFactor.button": "確認",
  "twoFactor.recoveryHint": "アプリを使えない場合は、復旧コードのいずれかを入力してください。",
  "twoFactor.cancel": "最初からやり直す",
  "twoFactor.passkey": "代わりにパスキーを使う",
  "twoFactor.setup.heading": "2段階認証を設定",
  "twoFactor.setup.scan": "認証アプリでこのQRコードを読み取るか、下のキーをアプリに入力してください。",
  "twoFactor.setup.secretLabel": "手動入力用のキー:",
  "twoFactor.setup.confirm": "アプリに今表示されているコード",
  "twoFactor.setup.button": "有効にする",
  "twoFactor.codes.heading": "復旧コード",
  "twoFactor.codes.message": "これらのコードを安全な場所に保管してください。端末をなくした場合、各コードで一度ログインできます。表示されるのは今だけです。",
  "twoFactor.codes.continue": "続ける",
  "twoFactor.manage.heading": "2段階認証は有効です",
  "twoFactor.manage.remaining": "未使用の復旧コード:",
  "twoFactor.manage.codeLabel": "現在のコードまたは復旧コード",
  "twoFactor.manage.regenerate": "新しい復旧コードを発行",
  "twoFactor.manage.disable": "無効にする",
  "twoFactor.off.heading": "2段階認証は無効です",
  "twoFactor.off.message": "ログインは最初のステップだけで行えます。いつでも再び有効にできます。",
  "twoFactor.codes.enabled": "2 段階認証をオンにしました。",
  "twoFactor.codes.renewed": "新しい復旧コードを発行しました。古いコードは使えなくなりました。",
  "twoFactor.codes.copy": "テキストとしてコピー",
  "twoFactor.codes.copyLabel": "復旧コード(1 行に 1 つ): 選択してコピーしてください",
  "twoFactor.codes.download": "テキストファイルとしてダウンロード",
  "twoFactor.setup.cancel": "キャンセル",
}
