// Fuzzes `verify`'s reader and checker: the input is written to a scratch
// file and verified as a result file, strict and --partial.  A report of
// any kind is a normal outcome and so is magic::Error (not a result file);
// a crash, a sanitizer report or any other exception is a finding.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

#include "checker/checker.hpp"
#include "magic/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // One file per process, rewritten for every input and removed after it.
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("fuzz_checker_" + std::to_string(::getpid()) + ".json")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();  // the harness itself failed, not the reader
  }
  for (bool partial : {false, true}) {
    try {
      (void)magic::checker::verify({.result_path = path, .partial = partial});
    } catch (const magic::Error&) {
    }
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return 0;
}
