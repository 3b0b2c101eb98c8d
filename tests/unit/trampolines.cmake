# unit.trampolines: the trampolines' register contract (docs/architecture.md,
# "The trampoline contract"), exaloop's trampolines and compiler-rt's,
# called as a sled calls them, on x86-64 or AArch64 (the harness is
# test_trampolines.c, the register loads trampolines_<arch>.S).
# compiler-rt's trampoline object is taken out of clang's XRay runtime
# archive (the rest of that runtime is not linked: the test defines the
# handler pointers it reads).
#
# Included by tests/unit/CMakeLists.txt, and by a runtime-only build
# (EXALOOP_RUNTIME_ONLY).  In an AArch64 cross build
# (cmake/aarch64-linux-gnu.cmake) CTest runs the test under qemu-aarch64
# (CMAKE_CROSSCOMPILING_EMULATOR; the test re-executes itself, which needs
# the kernel's binfmt_misc entry for qemu: scripts/test-arm64.sh).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(xl_tr_arch x86_64)
  set(xl_tr_object xray_trampoline_x86_64.S.o)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(xl_tr_arch aarch64)
  set(xl_tr_object xray_trampoline_AArch64.S.o)
else()
  return()
endif()
find_program(XL_TR_CLANG NAMES clang-14 clang REQUIRED)
execute_process(COMMAND ${XL_TR_CLANG} --print-runtime-dir OUTPUT_VARIABLE xl_rt_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(xl_xray_archive "${xl_rt_dir}/libclang_rt.xray-${xl_tr_arch}.a")
if(NOT EXISTS "${xl_xray_archive}")
  message(FATAL_ERROR "unit.trampolines needs LLVM's XRay runtime (${xl_xray_archive} not found): "
                      "apt-get install libclang-rt-14-dev (for AArch64: libclang-rt-14-dev:arm64)")
endif()
set(xl_crt_dir ${CMAKE_CURRENT_BINARY_DIR}/compiler-rt-xray)
set(xl_crt_tramp ${xl_crt_dir}/${xl_tr_object})
file(MAKE_DIRECTORY ${xl_crt_dir})
add_custom_command(OUTPUT ${xl_crt_tramp}
  COMMAND ${CMAKE_AR} x ${xl_xray_archive} ${xl_tr_object}
  WORKING_DIRECTORY ${xl_crt_dir}
  DEPENDS ${xl_xray_archive}
  COMMENT "Extracting compiler-rt's XRay trampolines"
  VERBATIM)
set_source_files_properties(${xl_crt_tramp} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
enable_language(ASM)
set(xl_tr_dir ${PROJECT_SOURCE_DIR}/tests/unit)
add_executable(test_trampolines ${xl_tr_dir}/test_trampolines.c ${xl_tr_dir}/trampolines_${xl_tr_arch}.S
               ${xl_crt_tramp})
if(TARGET PkgConfig::CMOCKA)
  set(xl_tr_cmocka PkgConfig::CMOCKA)
else() # a cross build: the target's multiarch cmocka (libcmocka-dev:arm64)
  find_library(xl_tr_cmocka NAMES cmocka REQUIRED)
endif()
# The whole runtime, as for test_calltree (its constructor starts the capture).
target_link_libraries(test_trampolines PRIVATE ${xl_tr_cmocka} -Wl,--whole-archive exaloop_rt
                      -Wl,--no-whole-archive exaloop_xray pthread)
target_include_directories(test_trampolines PRIVATE ${PROJECT_SOURCE_DIR}/src/rt ${PROJECT_SOURCE_DIR}/include)
xl_warnings(test_trampolines)
add_test(NAME unit.trampolines COMMAND test_trampolines)
set_tests_properties(unit.trampolines PROPERTIES LABELS unit)
