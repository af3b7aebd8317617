#!/usr/bin/env bash
# Installs the system programs the test suite drives for real: Chromium's headless shell
# (browser tests; the full browser beside it, which `bench/page_load.py` measures) and
# nginx (load-balancer tests). redis-server is expected on the machine;
# it is installed too when missing. The deployment checks (tests/deploy) need shellcheck
# and promtool. Idempotent: does nothing when all are present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
need_promtool=false
command -v promtool >/dev/null 2>&1 || need_promtool=true
if [ ${#need[@]} -eq 0 ] && [ "$need_promtool" = false ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may be running its own package updates when the suite starts: wait for
# apt's lock (up to five minutes) instead of failing on it. The option covers dpkg's lock
# (install); `update` takes the lists' lock, which it does not cover, so it is tried again.
APT=(apt-get -o DPkg::Lock::Timeout=300)
for attempt in $(seq 1 30); do
  if $SUDO "${APT[@]}" update -qq; then break; fi
  [ "$attempt" -lt 30 ] || exit 1
  echo "apt-get update failed (another update running?); trying again in 10 s"
  sleep 10
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing system packages: ${need[*]}"
  $SUDO "${APT[@]}" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ "$need_promtool" = true ]; then
  # Debian ships promtool in its `prometheus` package, whose installation would also set
  # up and start a Prometheus server: only promtool (one static program) is taken out.
  echo "installing promtool (from Debian's prometheus package)"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  chmod 777 "$scratch" # apt downloads as its own user, _apt
  (cd "$scratch" && apt-get download -qq prometheus >/dev/null)
  dpkg-deb --fsys-tarfile "$scratch"/prometheus_*.deb | tar -x -C "$scratch" ./usr/bin/promtool
  $SUDO install -m 0755 "$scratch/usr/bin/promtool" /usr/local/bin/promtool
fi
