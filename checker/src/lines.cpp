#include "lines.hpp"

#include <cerrno>
#include <cstring>

#include "magic/core/error.hpp"

namespace magic::checker {

LineReader::LineReader(const std::string& path, std::size_t max_line) : path_(path), max_line_(max_line) {
  in_.open(path, std::ios::binary);
  if (!in_) throw IoError("cannot read " + path + ": " + std::strerror(errno));
}

bool LineReader::fill() {
  if (eof_) return false;
  buf_.erase(0, pos_);
  pos_ = 0;
  char chunk[1 << 16];
  in_.read(chunk, sizeof chunk);
  // A directory opens but cannot be read (bad, not just at its end).
  if (in_.bad()) throw IoError("cannot read " + path_ + " (is it a directory?)");
  const auto got = static_cast<std::size_t>(in_.gcount());
  buf_.append(chunk, got);
  if (got == 0) eof_ = true;
  return got > 0;
}

bool LineReader::next(std::string& line) {
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      ++line_no_;
      return true;
    }
    if (buf_.size() - pos_ > max_line_)
      throw InputError(path_ + ": line " + std::to_string(line_no_ + 1) + " is longer than " +
                       std::to_string(max_line_) + " bytes");
    if (!fill()) break;
  }
  if (pos_ == buf_.size()) return false;
  line.assign(buf_, pos_);  // a last line without '\n'
  pos_ = buf_.size();
  ++line_no_;
  return true;
}

}  // namespace magic::checker
