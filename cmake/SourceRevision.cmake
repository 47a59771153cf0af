# Run at build time (cmake -P): writes OUT with the git commit of SRC, so a
# result file names the exact source its binary came from.  "-dirty" marks
# uncommitted changes to the code the binary is built from (not to data/ or
# the notes: a record run's journal changes while it runs); "unknown" a tree
# without git.  OUT is only rewritten when the text changes, so an unchanged
# tree rebuilds nothing.
set(rev "unknown")
execute_process(
  COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(rc EQUAL 0 AND NOT head STREQUAL "")
  set(rev "${head}")
  # status, not diff-index: a file touched but not changed is not a change.
  execute_process(
    COMMAND git -C "${SRC}" --no-optional-locks status --porcelain --untracked-files=no -- engine apps report checker cmake CMakeLists.txt
    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT changes STREQUAL "")
    string(APPEND rev "-dirty")
  endif()
endif()
set(text "#pragma once\n#define MAGIC_SOURCE \"${rev}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${text}")
