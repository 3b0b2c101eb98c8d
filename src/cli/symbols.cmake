# xl_symbols: XRay function-id symbolization (ELF + DWARF -> APP.symbols.json).
# Included by src/cli/CMakeLists.txt; usable from anywhere via include().
add_library(xl_symbols STATIC ${CMAKE_CURRENT_LIST_DIR}/symbols.c)
target_include_directories(xl_symbols PUBLIC ${CMAKE_CURRENT_LIST_DIR})
xl_warnings(xl_symbols)
# stdc++ provides __cxa_demangle for C++ names.
target_link_libraries(xl_symbols PUBLIC PkgConfig::LIBDW PkgConfig::JANSSON stdc++)
