#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (tests/test_play_browser.py,
# tests/test_pictures.py) when it is missing and this machine can: root, with apt-get.
# Never fails the build: where Chromium cannot be had, the browser tests skip and say why.
set -u
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: /usr/bin/chromium is missing and cannot be installed here (not root, or no apt-get); the browser tests will skip" >&2
    exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -q && apt-get install -y -q chromium; } >/tmp/ensure-chromium.log 2>&1; then
    echo "ensure-chromium: apt-get could not install chromium (see /tmp/ensure-chromium.log); the browser tests will skip" >&2
fi
exit 0
