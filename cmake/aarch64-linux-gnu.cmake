# Cross-compiling exaloop for AArch64 Linux on an x86-64 Debian host with
# clang 14 (scripts/test-arm64.sh, docs/architecture.md "Architectures").
# The runtime alone, for the SDK's aarch64/ directory of an x86-64 exaloop:
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DEXALOOP_RUNTIME_ONLY=ON
#   cmake --build build-aarch64 && cmake --install build-aarch64 --prefix build
#
# All of exaloop (the CLI, its libraries, the unit tests) also needs the
# AArch64 builds of elfutils, jansson, zlib and cmocka: either installed
# as Debian's multiarch -dev:arm64 packages, or unpacked into a directory
# given as XL_CROSS_SYSROOT (-DXL_CROSS_SYSROOT=DIR; what the script does),
# which is searched after the cross C library.
#
# The C library and crt files come from Debian's libc6-dev-arm64-cross
# (/usr/aarch64-linux-gnu), the GCC support files from
# libgcc-12-dev-arm64-cross; clang finds both by the target triple.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(XL_CROSS_TRIPLE aarch64-linux-gnu)

find_program(XL_CROSS_CC NAMES clang-14 clang REQUIRED)
find_program(XL_CROSS_CXX NAMES clang++-14 clang++ REQUIRED)
set(CMAKE_C_COMPILER ${XL_CROSS_CC})
set(CMAKE_CXX_COMPILER ${XL_CROSS_CXX})
set(CMAKE_ASM_COMPILER ${XL_CROSS_CC})
set(CMAKE_C_COMPILER_TARGET ${XL_CROSS_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${XL_CROSS_TRIPLE})
set(CMAKE_ASM_COMPILER_TARGET ${XL_CROSS_TRIPLE})

# Binutils that read AArch64 objects (check_hot.cmake disassembles them).
find_program(CMAKE_OBJDUMP NAMES llvm-objdump-14 ${XL_CROSS_TRIPLE}-objdump llvm-objdump)
find_program(CMAKE_NM NAMES llvm-nm-14 ${XL_CROSS_TRIPLE}-nm llvm-nm)
find_program(CMAKE_AR NAMES llvm-ar-14 ${XL_CROSS_TRIPLE}-ar llvm-ar)
find_program(CMAKE_RANLIB NAMES llvm-ranlib-14 ${XL_CROSS_TRIPLE}-ranlib llvm-ranlib)

# Target libraries (a test's cmocka) are Debian's multiarch arm64 ones, and
# the test runs through qemu-user.
set(CMAKE_LIBRARY_ARCHITECTURE ${XL_CROSS_TRIPLE})
set(XL_CROSS_SYSROOT "" CACHE PATH "Unpacked AArch64 -dev packages (elfutils, jansson, zlib, cmocka)")
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES XL_CROSS_SYSROOT)
set(xl_cross_libdirs)
if(XL_CROSS_SYSROOT)
  # Headers after the C library's (-idirafter), libraries by -L, and the
  # libraries those need at link time (libdw's liblzma, libbz2) by
  # -rpath-link.  pkg-config reads the sysroot's .pc files only.
  set(xl_cross_libdirs ${XL_CROSS_SYSROOT}/usr/lib/${XL_CROSS_TRIPLE} ${XL_CROSS_SYSROOT}/lib/${XL_CROSS_TRIPLE})
  string(APPEND CMAKE_C_FLAGS_INIT " -idirafter ${XL_CROSS_SYSROOT}/usr/include")
  string(APPEND CMAKE_CXX_FLAGS_INIT " -idirafter ${XL_CROSS_SYSROOT}/usr/include")
  foreach(d ${xl_cross_libdirs})
    string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -L${d} -Wl,-rpath-link,${d}")
  endforeach()
  set(ENV{PKG_CONFIG_LIBDIR} "${XL_CROSS_SYSROOT}/usr/lib/${XL_CROSS_TRIPLE}/pkgconfig")
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "${XL_CROSS_SYSROOT}")
else()
  set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${XL_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
endif()

# The tests run through qemu-user; with a sysroot, its libraries come first
# for the tests' processes (QEMU_LD_PREFIX: qemu looks there before the
# host's paths, which keep the AArch64 C library of libc6:arm64).  The
# variable reaches what a test starts, and through binfmt_misc its AArch64
# children; native programs ignore it.
find_program(XL_CROSS_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(XL_CROSS_QEMU AND XL_CROSS_SYSROOT)
  set(CMAKE_CROSSCOMPILING_EMULATOR env QEMU_LD_PREFIX=${XL_CROSS_SYSROOT} ${XL_CROSS_QEMU})
elseif(XL_CROSS_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${XL_CROSS_QEMU})
endif()

# The runtime is static archives only: compiler checks need not link (the
# cross C++ library may not be installed).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH /usr/${XL_CROSS_TRIPLE} ${XL_CROSS_SYSROOT} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
