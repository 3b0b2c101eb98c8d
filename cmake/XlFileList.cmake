# xl_read_file_list(LIST OUT): the files a *.list file names, one a line
# (blank lines and lines starting with # skipped), as absolute paths relative
# to the list's directory.  Used by the build (src/emit/CMakeLists.txt) and by
# Embed.cmake in script mode, so both read a list the same way;
# tests/browser/assemble.mjs follows the same rules.
function(xl_read_file_list list out)
  get_filename_component(dir "${list}" DIRECTORY)
  file(STRINGS "${list}" lines)
  set(files)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^#")
      continue()
    endif()
    list(APPEND files "${dir}/${line}")
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()
