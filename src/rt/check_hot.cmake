# check_hot.cmake - run after every build of libexaloop_rt.a (cmake -P).
#
# exaloop's lean XRay trampolines (rt_tramp_<arch>.S) save only the
# argument registers before calling the hot path, so the hot objects
# (rt_hot.c, rt_arena.c; built with -mgeneral-regs-only) must not touch a
# vector, x87 or MMX register, and must not call anything outside
# themselves (libc may use vector registers).  This script fails the build
# when they do.
#
# Inputs: OBJECTS (;-list), OBJDUMP, NM, ARCH (x86_64 or aarch64).
if(NOT OBJDUMP OR NOT NM)
  message(STATUS "check_hot: objdump/nm not found, hot-path register check skipped")
  return()
endif()
# Symbols the hot objects may refer to without defining them: the
# runtime's globals (data), each other's functions, and the linker-defined
# _GLOBAL_OFFSET_TABLE_ (gcc names it in PIC objects with local-exec TLS).
set(allowed rt__base rt__hdr rt__on rt__use_tsc rt__track_sp rt__cfg _GLOBAL_OFFSET_TABLE_)
set(defined "")
set(undefined "")
foreach(obj IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} --defined-only -g ${obj} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_hot: ${NM} failed on ${obj}")
  endif()
  string(REGEX MATCHALL "[^ \n]+\n" lines "${out}")
  foreach(l IN LISTS lines)
    string(STRIP "${l}" l)
    list(APPEND defined "${l}")
  endforeach()
  execute_process(COMMAND ${NM} -u ${obj} OUTPUT_VARIABLE out)
  string(REGEX MATCHALL "U [^ \n]+" lines "${out}")
  foreach(l IN LISTS lines)
    string(REPLACE "U " "" l "${l}")
    list(APPEND undefined "${l}")
  endforeach()
  execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${obj} OUTPUT_VARIABLE dis RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_hot: ${OBJDUMP} failed on ${obj}")
  endif()
  if(ARCH STREQUAL "aarch64")
    # SIMD/FP registers: v0-v31 and their q/d/s/h/b views (llvm-objdump).
    string(REGEX MATCH "[^\n]*[\t ,{[]([vqdshb][0-9]+)(\\.[0-9]*[bhsdq])?([ ,}\n]|$)[^\n]*" bad "${dis}")
  else()
    string(REGEX MATCH "[^\n]*%([xyz]mm[0-9]+|mm[0-7]|st(\\([0-7]\\))?)[^\n]*" bad "${dis}")
  endif()
  if(bad)
    message(FATAL_ERROR "check_hot: ${obj} uses a vector/x87 register, which the lean trampolines "
      "do not save:\n  ${bad}\nBuild it with -mgeneral-regs-only and keep libc calls out of it.")
  endif()
endforeach()
foreach(sym IN LISTS undefined)
  list(FIND defined "${sym}" i)
  list(FIND allowed "${sym}" j)
  if(i EQUAL -1 AND j EQUAL -1)
    message(FATAL_ERROR "check_hot: the hot path refers to '${sym}', which is outside it; the lean "
      "trampolines only allow calls within rt_hot.c and rt_arena.c")
  endif()
endforeach()
