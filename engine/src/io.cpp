#include "magic/io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unistd.h>

namespace magic {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw IoError("empty output path");
  if (path_ == "-") {
    f_ = stdout;
    stdout_ = true;
    return;
  }
  tmp_ = path_ + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp_.data());
  if (fd < 0) throw IoError("cannot create " + path_ + ": " + std::strerror(errno));
  f_ = ::fdopen(fd, "w");
  if (!f_) {
    ::close(fd);
    ::unlink(tmp_.c_str());
    throw IoError("cannot open " + path_ + ": " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (stdout_ || !f_) return;
  std::fclose(f_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void AtomicFile::write(const std::string& s) {
  if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
    throw IoError("write to " + path_ + " failed: " + std::strerror(errno));
}

void AtomicFile::commit() {
  if (stdout_) {
    std::fflush(f_);
    return;
  }
  if (std::fflush(f_) != 0 || ::fsync(::fileno(f_)) != 0)
    throw IoError("write to " + path_ + " failed: " + std::strerror(errno));
  const int rc = std::fclose(f_);
  f_ = nullptr;
  if (rc != 0 || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    ::unlink(tmp_.c_str());
    throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
  }
  committed_ = true;
}

std::string read_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + path + ": " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace magic
