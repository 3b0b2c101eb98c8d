# The Debian package (CPack's DEB generator): after a build,
#
#   cpack -G DEB --config BUILD/CPackConfig.cmake     (or: cd BUILD && cpack -G DEB)
#
# writes exaloop_<version>_<arch>.deb with what `cmake --install` installs:
# bin/exaloop (and the exaloop-cc, exaloop-c++ links) and the profiling SDK in
# <libdir>/exaloop/profiling, under /usr.  The CLI finds the SDK relative to
# itself (sdk.c), so the package works wherever it is unpacked.  Configure with
# -DCMAKE_INSTALL_PREFIX=/usr to get Debian's multiarch libdir
# (lib/x86_64-linux-gnu); the default prefix gives lib/.
# tests/e2e/t0030-package-deb.py builds, inspects and runs the package.
set(EXALOOP_PACKAGE_MAINTAINER "exaloop maintainers <maintainers@users.noreply.a-seed-2503f3e1.example>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME exaloop)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${EXALOOP_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "native profiler for C and C++ programs built with LLVM XRay")
# CPack puts the summary first and indents these lines as the control file wants.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "One command builds a C or C++ program with clang's XRay instrumentation,
runs it with its normal arguments, output and exit status, and writes a
self-contained HTML report: an elapsed-time flame graph, a function table
and a memory chart, with the heap allocations on the call paths that made
them.  Compiler wrappers profile projects with their own build systems;
captures export to Perfetto, Chrome trace, folded stacks and pprof.")

# What the CLI and the runtime need at run time.  The libraries the CLI links
# (libc6, libdw1, libelf1, libjansson4, libstdc++6, zlib1g) come from
# dpkg-shlibdeps, with their versions.  The toolchain it drives is listed:
# clang-14 builds the profiled program (src/driver/toolchain.c), and the
# runtime library is made for clang 14 (manifest.toml); libclang-rt-14-dev has
# the XRay runtime every profiled program links (and the profile runtime of
# `pgo train`); llvm-14 has llvm-profdata, which `pgo` merges profiles with.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-14, libclang-rt-14-dev, llvm-14")
# xdg-open shows the report; programs on the Boehm collector link libgc.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xdg-utils")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libgc-dev")

include(CPack)
