#!/bin/sh
# t/report/chromium.sh PAGE PNG LOG [DOM]: opens the file PAGE (an absolute
# path) in headless Chromium, as root is allowed to, with nothing that
# reaches the network; writes a 1280x2000 screenshot to PNG, Chromium's log
# (console messages included) to LOG, and with DOM the page's DOM as
# Chromium parsed it.  Exits with Chromium's status (124: timed out).
set -eu
page=$1 png=$2 log=$3 dom=${4:-}
ud=$(mktemp -d)
trap 'rm -rf "$ud"' EXIT
set -- --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update \
	--disable-sync --disable-extensions --user-data-dir="$ud" \
	--enable-logging=stderr --v=0
timeout 120 chromium "$@" --screenshot="$png" --window-size=1280,2000 \
	"file://$page" >/dev/null 2>"$log"
if [ -n "$dom" ]; then
	timeout 120 chromium "$@" --dump-dom "file://$page" >"$dom" 2>>"$log"
fi
