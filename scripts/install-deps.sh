#!/usr/bin/env bash
# Install the Debian 12 packages gshmem needs to build, test and run its demo.
# Idempotent: does nothing (not even apt-get update) when every package is already installed.
# As root it installs what is missing; otherwise it names the missing packages and the command to run.
set -euo pipefail

PACKAGES=(
  openmpi-bin libopenmpi-dev libucx-dev ucx-utils libhwloc-dev hwloc rdma-core libibverbs-dev
  googletest libgtest-dev libbenchmark-dev pkg-config cmake g++ make gnuplot-nox iproute2
  dpkg-dev file binutils man-db
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: install them as root with:" >&2
  echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing: ${missing[*]}"
# Refresh the package lists only when they are absent or the install cannot find a package.
if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
  apt-get update
fi
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "install-deps: done"
