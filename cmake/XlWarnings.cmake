# One place for the project's warning flags (every target that is ours calls xl_warnings()).
option(EXALOOP_WERROR "Treat warnings as errors" ON)

function(xl_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wformat=2 -Wno-unused-parameter)
  if(EXALOOP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
