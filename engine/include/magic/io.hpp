#pragma once
// Output files are written to a temporary file beside the target and renamed
// into place on commit(), so a failed or interrupted run never leaves a
// half-written result behind.  "-" means stdout (no temp file, no rename).
#include <cstdio>
#include <string>

#include "magic/core/error.hpp"

namespace magic {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const std::string& s);
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string tmp_;
  std::FILE* f_ = nullptr;
  bool stdout_ = false;
  bool committed_ = false;
};

// Reads a whole file ("-" = stdin); throws IoError with the path on failure.
std::string read_file(const std::string& path);

}  // namespace magic
