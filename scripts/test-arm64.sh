#!/usr/bin/env bash
# The AArch64 stage (issue 23, docs/architecture.md "Supported
# architectures", docs/cli.md "Other architectures"): on an x86-64 Debian
# 12 machine, install qemu-user and the arm64 cross packages, let the
# kernel run AArch64 executables through qemu (binfmt_misc, when this runs
# as root), unpack the arm64 libraries exaloop links into a sysroot,
# cross-build all of exaloop for AArch64 (build-aarch64: the CLI, the
# analyzer, the runtime, the unit tests), run its unit tests under qemu,
# install its runtime into the SDK of build/ (for `--arch aarch64`), and
# run the CTest label `arm64` of build/ (AArch64 programs built, captured
# under qemu and reported on the host).  Run by .ci/run after the main
# suite; safe to run again.  Extra arguments go to the last ctest.
#
# QEMU_LD_PREFIX is never exported here: it reaches every process the
# tests start.  Only build-aarch64's own test processes get it (the
# sysroot, through the toolchain file's emulator); libc6:arm64 (multiarch)
# puts the AArch64 loader and C library where AArch64 executables look for
# them, and exaloop passes -L itself when they are missing.
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
  # qemu, the cross C and C++ libraries and GCC's support files for
  # clang's --target=aarch64-linux-gnu (exaloop's libraries link libstdc++
  # for the demangler; C++ programs under --arch aarch64 need it too), and
  # binutils that read AArch64 objects.
  apt_install qemu-user qemu-user-binfmt libc6-dev-arm64-cross libgcc-12-dev-arm64-cross \
    libstdc++-12-dev-arm64-cross binutils-aarch64-linux-gnu
  # compiler-rt's AArch64 archives (XRay) and the AArch64 C library (the
  # loader qemu runs) come from the arm64 architecture.
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    sudo_ dpkg --add-architecture arm64
    sudo_ apt-get update -qq
  fi
  apt_install libclang-rt-14-dev:arm64 libc6:arm64
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

# The AArch64 libraries exaloop itself links (elfutils, jansson, zlib) and
# its unit tests' cmocka, as a sysroot of unpacked packages: installing the
# -dev:arm64 packages would make apt upgrade their amd64 counterparts to the
# same version, which a shared machine may not want.  The .debs are cached
# (downloaded once per version); the sysroot is unpacked again when the
# list changes.  libc6-dev-arm64-cross and libc6:arm64 provide the C
# library, so the closure stops there (apt-cache depends of each).
SYSROOT_PKGS=(libdw-dev libdw1 libelf-dev libelf1 libjansson-dev libjansson4 zlib1g-dev zlib1g liblzma-dev
              liblzma5 libbz2-1.0 libcmocka-dev libcmocka0)
DEB_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/exaloop-arm64/debs
SYSROOT=$PWD/build-aarch64/sysroot
make_sysroot() {
  mkdir -p "$DEB_CACHE"
  local want=() p v f need=() list=""
  for p in "${SYSROOT_PKGS[@]}"; do want+=("$p:arm64"); done
  # The candidate versions (one apt-cache call) and their files' names:
  # download only what the cache lacks.
  while read -r p v; do
    [ "$v" != "(none)" ] || { echo "test-arm64: no candidate for $p (apt-get update?)" >&2; exit 1; }
    f="${p%:arm64}_${v//:/%3a}_arm64.deb"
    [ -f "$DEB_CACHE/$f" ] || need+=("$p=$v")
    list+="$f"$'\n'
  done < <(apt-cache policy "${want[@]}" | awk '/^[^ ]/ {p = $1; sub(/:$/, "", p)} /Candidate:/ {print p, $2}')
  if [ ${#need[@]} -gt 0 ]; then
    echo "test-arm64: downloading ${need[*]}"
    # As root apt downloads as _apt, which cannot write to root's cache
    # (it warns and falls back to root): download as root at once.
    local as=()
    [ "$(id -u)" != 0 ] || as=(-o APT::Sandbox::User=root)
    (cd "$DEB_CACHE" && apt-get download -qq "${as[@]}" "${need[@]}")
  fi
  local stamp="$SYSROOT/.debs"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${list%$'\n'}" ]; then
    rm -rf "$SYSROOT"
    mkdir -p "$SYSROOT"
    while read -r f; do dpkg -x "$DEB_CACHE/$f" "$SYSROOT"; done <<<"${list%$'\n'}"
    # The -dev packages' absolute links (libz.so -> /lib/...) into the sysroot.
    local l t
    while read -r l; do
      t=$(readlink "$l")
      case $t in /*) ln -sfr "$SYSROOT$t" "$l" ;; esac
    done < <(find "$SYSROOT" -type l)
    printf '%s' "${list%$'\n'}" >"$stamp"
  fi
}

# The host build (the CLI and its SDK).
[ -d build ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"

# All of exaloop for AArch64 (cmake/aarch64-linux-gnu.cmake): the CLI, its
# libraries, the runtime and the unit tests, against the sysroot on x86-64
# (natively on AArch64).  Its runtime archives are also the SDK part of
# build/ for `--arch aarch64` (<libdir>/exaloop/profiling/aarch64/).
cross=(-DEXALOOP_RUNTIME_ONLY=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXALOOP_WERROR=ON)
QEMU=() # how to run an AArch64 program of build-aarch64 here
if [ "$(uname -m)" = x86_64 ]; then
  make_sysroot
  cross+=(-DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DXL_CROSS_SYSROOT="$SYSROOT")
  QEMU=(env QEMU_LD_PREFIX="$SYSROOT" qemu-aarch64)
fi
cmake -S . -B build-aarch64 "${cross[@]}" >/dev/null
cmake --build build-aarch64 -j"$(nproc)"
cmake --install build-aarch64 --component cross-sdk --prefix build >/dev/null

# The AArch64 build's unit tests (label unit: cmocka, the replayed fuzz
# corpora, the layers of the AArch64 objects; label toml: the TOML suite),
# through qemu-user on x86-64 (CMAKE_CROSSCOMPILING_EMULATOR).  Left out,
# and why:
# - unit.rt_tsan (disabled by tests/tsan/CMakeLists.txt under an emulator):
#   ThreadSanitizer runs under qemu, but this test takes 80-100 s there
#   and 3 GB of memory per process; its "exact" scenario passes, its
#   "close" one does not: qemu's emulated /proc/self/maps is slow with
#   TSan's shadow mappings (1.4 s for a small program's 86 lines), and
#   the control thread was still in its first sampling step (which reads
#   the maps) when the scenario ended: the 1 s window never closed.  Without TSan the window closes
#   on time under qemu (s-threads, 8 threads, --duration 300ms: closed
#   after 351 ms).  The host build runs the test (scripts/test.sh).
# - without the binfmt_misc entry, the tests that start an AArch64 program
#   themselves, which qemu-user hands to the kernel: unit.trampolines
#   re-executes itself (/proc/self/exe), toml.suite runs the AArch64
#   decoder for each case.
skip='^$'
if [ "$(uname -m)" != aarch64 ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  echo "test-arm64: unit.trampolines and toml.suite (AArch64) not run: they start AArch64 programs," \
    "which needs the binfmt_misc entry (run as root)" >&2
  skip='^(unit\.trampolines|toml\.suite)$'
fi
ctest --test-dir build-aarch64 --output-on-failure -j"$(nproc)" -L 'unit|toml' -E "$skip"

# The AArch64 CLI itself: its version, and a command that cannot work on
# AArch64 says so in one line (profile attach's ptrace code is x86-64's).
"${QEMU[@]}" build-aarch64/bin/exaloop --version
if out=$("${QEMU[@]}" build-aarch64/bin/exaloop profile attach 1 2>&1); then
  echo "test-arm64: 'profile attach' succeeded on AArch64: $out" >&2
  exit 1
fi
grep -q "x86-64 only" <<<"$out" || { echo "test-arm64: unexpected: $out" >&2; exit 1; }

# AArch64 programs built by build/'s exaloop, captured under qemu and
# reported on the host.
ctest --test-dir build --output-on-failure -j"$(nproc)" -L arm64 "$@"
