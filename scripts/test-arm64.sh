#!/usr/bin/env bash
# The AArch64 stage (issue 23, docs/cli.md "Other architectures"): on an
# x86-64 Debian 12 machine, install qemu-user and the arm64 cross packages,
# let the kernel run AArch64 executables through qemu (binfmt_misc, when
# this runs as root), cross-build exaloop's runtime for AArch64 into the
# SDK of build/, run the AArch64 trampolines' register-contract test
# (unit.trampolines of build-aarch64, under qemu) and the CTest label
# `arm64` of build/ (AArch64 programs built, captured under qemu and
# reported on the host).  Run by .ci/run after the
# main suite; safe to run again.  Extra arguments go to ctest.
#
# QEMU_LD_PREFIX is never set here: it reaches every process the tests
# start, native ones too.  libc6:arm64 (multiarch) puts the AArch64 loader
# where AArch64 executables look for it; exaloop passes -L itself when it
# is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
apt_install() {
  local missing=()
  for p in "$@"; do installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "test-arm64: installing ${missing[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

if [ "$(uname -m)" = x86_64 ]; then
  # qemu, the cross C library and GCC's support files for clang's
  # --target=aarch64-linux-gnu, and binutils that read AArch64 objects.
  apt_install qemu-user qemu-user-binfmt libc6-dev-arm64-cross libgcc-12-dev-arm64-cross \
    binutils-aarch64-linux-gnu
  # compiler-rt's AArch64 archives (XRay) come from the arm64 architecture.
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    sudo_ dpkg --add-architecture arm64
    sudo_ apt-get update -qq
  fi
  apt_install libclang-rt-14-dev:arm64 libc6:arm64 libcmocka-dev:arm64
  # binfmt_misc is not mounted on a fresh machine; as root, mount it and
  # register qemu-user-binfmt's entry.  Without it exaloop runs qemu itself.
  if [ "$(id -u)" = 0 ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true
    if [ -w /proc/sys/fs/binfmt_misc/register ] && command -v update-binfmts >/dev/null; then
      update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    if [ -w /proc/sys/fs/binfmt_misc/register ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] &&
       [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ]; then
      grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register || true
    fi
  fi
  if [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    echo "test-arm64: the kernel runs AArch64 executables through qemu (binfmt_misc)"
  else
    echo "test-arm64: no binfmt_misc entry: exaloop runs qemu-aarch64 itself"
  fi
fi

# The host build (the CLI and its SDK), then the runtime for AArch64 into
# that SDK's aarch64/ directory.
[ -d build ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DEXALOOP_RUNTIME_ONLY=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXALOOP_WERROR=ON >/dev/null
cmake --build build-aarch64 -j"$(nproc)"
cmake --install build-aarch64 --prefix build >/dev/null

# The register-contract test re-executes itself (/proc/self/exe), which
# qemu-user hands to the kernel: it needs the binfmt_misc entry (natively,
# nothing).
if [ "$(uname -m)" = aarch64 ] || [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  ctest --test-dir build-aarch64 --output-on-failure
else
  echo "test-arm64: unit.trampolines (AArch64) not run: it needs the binfmt_misc entry (run as root)" >&2
fi
ctest --test-dir build --output-on-failure -j"$(nproc)" -L arm64 "$@"
