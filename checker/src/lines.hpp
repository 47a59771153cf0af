#pragma once
// Reads a JSON Lines file one line at a time, so a solutions file of any
// size streams through; a single line longer than `max_line` is refused
// before it is held in memory.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace magic::checker {

class LineReader {
 public:
  LineReader(const std::string& path, std::size_t max_line);  // throws IoError
  // The next line without its '\n'; false at the end.  Throws InputError
  // for an over-long line, IoError when the file cannot be read.
  bool next(std::string& line);
  std::uint64_t line_number() const { return line_no_; }

 private:
  bool fill();  // appends one chunk; false at the end of the file

  std::string path_;
  std::ifstream in_;
  std::size_t max_line_;
  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t line_no_ = 0;
  bool eof_ = false;
};

}  // namespace magic::checker
