#!/usr/bin/env bash
# Installs the Debian packages the project and its tests need, if missing.
# Idempotent: does nothing (and needs no root) when everything is present.
set -euo pipefail

# Debian packages the tests need. Later parts (firmware, browser tests) add theirs.
packages=(
  gnubg  # GNU Backgammon: the tests check that it imports our .mat exports
  # the cube unit: firmware built with avr-gcc, run in simavr, parser tested with gcc
  gcc make gcc-avr avr-libc binutils-avr libsimavr-dev
  # the companion page's tests drive a real headless browser
  chromium chromium-driver
  # the tournament hall's tests run a real MQTT broker (mosquitto, mosquitto_passwd)
  mosquitto
)
# Debian's python3 ships venv without ensurepip; python3-venv brings it.
python3 -c 'import ensurepip, venv' 2>/dev/null || packages+=(python3-venv)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "install-system: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
  exit 1
fi
echo "install-system: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
