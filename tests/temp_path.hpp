#pragma once
// Scratch files of the tests.  They live in GoogleTest's TempDir
// ($TEST_TMPDIR, else /tmp) and are removed by their owner: scripts/test.sh
// runs the suite in an empty temp dir and fails if anything is left in it.
#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>

#include <gtest/gtest.h>
#include <unistd.h>

// A path in the test temp dir that is unique to this process, since other
// build trees may run the same tests at the same time.
inline std::string unique_temp_path(const std::string& stem) {
  return ::testing::TempDir() + "/" + stem + "_" + std::to_string(::getpid());
}

// A file or directory path that is removed, with everything under it, when
// the object goes out of scope (also when an ASSERT returns early).  Nothing
// is created; the name is unique in the process.
class ScratchPath {
 public:
  explicit ScratchPath(const std::string& stem) {
    static std::atomic<int> seq{0};
    path_ = unique_temp_path(stem) + "_" + std::to_string(seq++);
    remove();
  }
  ~ScratchPath() { remove(); }
  ScratchPath(const ScratchPath&) = delete;
  ScratchPath& operator=(const ScratchPath&) = delete;

  const std::string& str() const { return path_; }
  std::filesystem::path path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path() / name; }

 private:
  void remove() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path_;
};

// A fresh empty directory, removed with its contents at scope exit.
class ScratchDir : public ScratchPath {
 public:
  explicit ScratchDir(const std::string& stem) : ScratchPath(stem) { std::filesystem::create_directories(path()); }
};
