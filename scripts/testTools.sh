#!/usr/bin/env bash
# Run before `npm test` (npm's pretest): the browser tests need Chromium's headless shell (with
# Chromium's Chinese texts) and CJK fonts, the grading tests need poppler's pdftoppm. On a fresh
# Debian machine we install them with apt-get when we run as root; otherwise we say exactly what
# is missing and stop, so the suite never "passes" by skipping what it could not run.
set -euo pipefail

missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" ] || missing+=(chromium-headless-shell)
# Chromium's Chinese UI texts: without them native date inputs read 11/28/2026 instead of 2026/11/28.
[ -n "${CHROMIUM_PATH:-}" ] || [ -e /usr/lib/chromium/locales/zh-CN.pak ] || missing+=(chromium-l10n)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
{ command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh family | grep -qi 'Noto Sans CJK'; } || missing+=(fonts-noto-cjk)

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "npm test needs: ${missing[*]} (Debian: sudo apt-get install -y ${missing[*]})" >&2
  exit 1
fi

echo "Installing what the tests need: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" fontconfig >/dev/null
