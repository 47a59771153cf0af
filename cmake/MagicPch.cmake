# Precompiled headers: the large headers nearly every file of a target
# includes (nlohmann/json, CLI11, GoogleTest, the standard library) are
# parsed once per target instead of once per file.  Never a project header:
# touching one must rebuild only the files that include it.
# MAGIC_PCH=OFF compiles without them (to check that every file includes
# what it uses).
option(MAGIC_PCH "Precompile the large third-party headers" ON)

set(MAGIC_PCH_COMMON <algorithm> <array> <cstdint> <functional> <map> <memory> <optional> <string> <vector>
    <nlohmann/json.hpp>)

# magic_precompile(TARGET header...): TARGET's own precompiled header.
function(magic_precompile target)
  if(MAGIC_PCH)
    target_precompile_headers(${target} PRIVATE ${MAGIC_PCH_COMMON} ${ARGN})
  endif()
endfunction()

# magic_precompile_reuse(TARGET FROM): TARGET uses FROM's (same flags).
function(magic_precompile_reuse target from)
  if(MAGIC_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
