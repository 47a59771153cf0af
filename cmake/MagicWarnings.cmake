# One interface target carries warnings, sanitizers and tuning flags so every
# target in the tree is built the same way.
add_library(magic_options INTERFACE)
target_compile_options(magic_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  # Designated initialisers of option structs leave the rest defaulted on purpose.
  -Wno-missing-field-initializers
  # GCC 12 reports false -Wrestrict hits inside std::string operator+ (GCC PR 105329).
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
if(MAGIC_NATIVE)
  target_compile_options(magic_options INTERFACE -march=native)
endif()
# Compile and link alike; no recovery, so the first report stops the program
# with a failing exit code.
if(MAGIC_SANITIZE)
  target_compile_options(magic_options INTERFACE -fsanitize=${MAGIC_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(magic_options INTERFACE -fsanitize=${MAGIC_SANITIZE} -fno-sanitize-recover=all)
endif()
# Coverage instrumentation for libFuzzer in every library the fuzzers link;
# only the fuzz/ targets link libFuzzer itself (-fsanitize=fuzzer).
if(MAGIC_FUZZ)
  target_compile_options(magic_options INTERFACE -fsanitize=fuzzer-no-link)
  target_link_options(magic_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
