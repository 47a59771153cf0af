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
  if (stdout_) {
    held_ += s;
    return;
  }
  if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
    throw IoError("write to " + path_ + " failed: " + std::strerror(errno));
}

void AtomicFile::commit() {
  if (stdout_) {
    if (std::fwrite(held_.data(), 1, held_.size(), f_) != held_.size() || std::fflush(f_) != 0)
      throw IoError("write to standard output failed: " + std::string(std::strerror(errno)));
    held_.clear();
    committed_ = true;
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

std::string read_file(const std::string& path, std::size_t max_bytes) {
  const std::string shown = path == "-" ? std::string("standard input") : path;
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) throw IoError("cannot read " + shown + ": " + std::strerror(errno));
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::string out;
  char buf[1 << 16];
  // A directory opens but cannot be read: say so instead of "underflow".
  try {
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      out.append(buf, static_cast<std::size_t>(in.gcount()));
      if (out.size() > max_bytes)
        throw InputError(shown + " is larger than " + std::to_string(max_bytes) + " bytes");
    }
  } catch (const std::ios_base::failure&) {
    throw IoError("cannot read " + shown);
  }
  if (in.bad()) throw IoError("cannot read " + shown + (path != "-" ? " (is it a directory?)" : ""));
  return out;
}

nlohmann::json parse_json(std::string_view text, const std::string& what, JsonLimits limits) {
  if (text.size() > limits.max_bytes)
    throw InputError(what + ": larger than " + std::to_string(limits.max_bytes) + " bytes");
  // The library parses iteratively but destroys and prints values
  // recursively, so depth is checked while parsing, before any value exists.
  // (A callback that throws is the documented way to stop the parser.)
  struct TooDeep {};
  auto guard = [&](int depth, nlohmann::json::parse_event_t ev, nlohmann::json&) {
    if ((ev == nlohmann::json::parse_event_t::object_start || ev == nlohmann::json::parse_event_t::array_start) &&
        static_cast<std::size_t>(depth) >= limits.max_depth)
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, guard);
  } catch (const TooDeep&) {
    throw InputError(what + ": nested deeper than " + std::to_string(limits.max_depth) + " levels");
  } catch (const nlohmann::json::exception& e) {
    std::string msg = e.what();  // "[json.exception.parse_error.101] parse error at ...": keep the words
    if (const auto k = msg.find("] "); msg.rfind("[json.exception", 0) == 0 && k != std::string::npos)
      msg = msg.substr(k + 2);
    throw InputError(what + ": malformed JSON: " + msg);
  }
}

}  // namespace magic
