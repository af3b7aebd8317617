#!/usr/bin/env bash
# Installs the system programs the test suite drives for real: Chromium (browser
# tests) and nginx (load-balancer tests). redis-server is expected on the machine;
# it is installed too when missing. Idempotent: does nothing when all are present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "installing system packages: ${need[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
