# Cross-compiling exaloop's runtime for AArch64 Linux on an x86-64 Debian host
# with clang 14 (scripts/test-arm64.sh):
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DEXALOOP_RUNTIME_ONLY=ON
#   cmake --build build-aarch64 && cmake --install build-aarch64 --prefix build
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
find_program(XL_CROSS_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(XL_CROSS_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${XL_CROSS_QEMU})
endif()

# The runtime is static archives only: compiler checks need not link (the
# cross C++ library may not be installed).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH /usr/${XL_CROSS_TRIPLE} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
