# One place for the project's warning flags (every target that is ours calls xl_warnings()).
#
# The warnings are always on; EXALOOP_WERROR makes them errors.  It is off by
# default: a user or packager building a release with a newer compiler than
# ours (gcc 12, clang 14) must not be stopped by a warning that compiler adds.
# CI (.ci/run) and developers turn it on (docs/architecture.md, "Conventions"),
# and every build type is kept warning-free with both compilers.
option(EXALOOP_WERROR "Treat warnings as errors (CI and development)" OFF)

function(xl_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wformat=2 -Wno-unused-parameter)
  if(EXALOOP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
