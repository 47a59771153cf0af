# One interface target carries warnings, sanitizers and tuning flags so every
# target in the tree is built the same way.
add_library(magic_options INTERFACE)
target_compile_options(magic_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  # Designated initialisers of option structs leave the rest defaulted on purpose.
  -Wno-missing-field-initializers
  # GCC 12 reports false -Wrestrict hits inside std::string operator+ (GCC PR 105329).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
# CI builds with -DMAGIC_WERROR=ON: a new warning in the project's own code
# fails the build (a user's newer compiler may warn where g++ 12 does not).
option(MAGIC_WERROR "treat the project's compiler warnings as errors" OFF)
if(MAGIC_WERROR)
  target_compile_options(magic_options INTERFACE -Werror)
endif()
if(MAGIC_NATIVE)
  target_compile_options(magic_options INTERFACE -march=native)
endif()
# Compile and link alike; no recovery, so the first report stops the program
# with a failing exit code.
if(MAGIC_SANITIZE)
  # The star chain's BMI2 copy is the portable copy's source compiled twice
  # (star/star.hpp): a sanitizer build compiles and checks it once.
  target_compile_definitions(magic_options INTERFACE MAGIC_NO_BMI2_COPY=1)
  target_compile_options(magic_options INTERFACE -fsanitize=${MAGIC_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(magic_options INTERFACE -fsanitize=${MAGIC_SANITIZE} -fno-sanitize-recover=all)
endif()
# Coverage instrumentation for libFuzzer, only on the code that reads
# outside input (magic_fuzz_coverage below), never on the searches: CI runs
# the unit tests in the same tree (scripts/ci-extra.sh), and instrumented
# search kernels would only slow them.  Only the fuzz/ targets link
# libFuzzer itself (-fsanitize=fuzzer); the sanitizer runtime holds the
# coverage hooks every other program of the tree needs.
function(magic_fuzz_coverage)  # magic_fuzz_coverage(TARGET t) or (SOURCES a.cpp ...)
  if(NOT MAGIC_FUZZ)
    return()
  endif()
  cmake_parse_arguments(ARG "" "TARGET" "SOURCES" ${ARGN})
  if(ARG_TARGET)
    target_compile_options(${ARG_TARGET} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
  if(ARG_SOURCES)
    set_property(SOURCE ${ARG_SOURCES} APPEND PROPERTY COMPILE_OPTIONS -fsanitize=fuzzer-no-link)
    # Not with the target's precompiled header, which is compiled without it.
    set_property(SOURCE ${ARG_SOURCES} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()

# The largest star size compiled.  The large sizes are most of the star's
# build, and no test under a sanitizer searches a star that large:
# scripts/ci-extra.sh stops at 16 (ASan) and 12 (TSan).
set(MAGIC_STAR_MAX_N 24 CACHE STRING "The largest star size n compiled: 12, 16 or 24")
set_property(CACHE MAGIC_STAR_MAX_N PROPERTY STRINGS 12 16 24)
if(NOT MAGIC_STAR_MAX_N MATCHES "^(12|16|24)$")
  message(FATAL_ERROR "MAGIC_STAR_MAX_N must be 12, 16 or 24, not '${MAGIC_STAR_MAX_N}'")
endif()
if(NOT MAGIC_STAR_MAX_N EQUAL 24)
  target_compile_definitions(magic_options INTERFACE MAGIC_STAR_BUILT_MAX_N=${MAGIC_STAR_MAX_N})
endif()
