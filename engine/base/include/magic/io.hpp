#pragma once
// Output files are written to a temporary file beside the target and renamed
// into place on commit(), so a failed or interrupted run never leaves a
// half-written result behind.  "-" means stdout: the text is held in memory
// and written on commit(), for the same reason.  A device or FIFO is written
// straight through (renaming would replace it); a symlink's target is
// replaced, never the link.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"

namespace magic {

// The file a write to `path` lands on: symlinks followed (even when the
// target does not exist yet), then made absolute and canonical.
std::string resolve_links(const std::string& path);  // the links alone
std::string real_path(const std::string& path);
// Whether two paths name one file: the same device and inode when both
// exist (hard links too), else the same real_path.
bool same_file(const std::string& a, const std::string& b);
// write(2) until all of `text` is written, resumed after a signal (EINTR);
// the bytes written, fewer than text.size() on an error (errno says which).
std::size_t write_all(int fd, std::string_view text);

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
  std::string target_;  // path_, or the file its symlink points to
  std::string tmp_;
  std::FILE* f_ = nullptr;
  bool stdout_ = false;
  bool direct_ = false;  // not a regular file (a device, a FIFO): no temp file
  std::string held_;  // stdout's text until commit()
  bool committed_ = false;
};

// Reads a whole file ("-" = stdin); throws IoError with the path on failure,
// and InputError when it holds more than `max_bytes`.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;
std::string read_file(const std::string& path, std::size_t max_bytes = kMaxInputBytes);

// Text from outside, shortened for a message or a field: at most max_bytes,
// never cut inside a UTF-8 character (the JSON writer refuses half a one).
std::string utf8_prefix(std::string_view text, std::size_t max_bytes);
// Characters (code points) in UTF-8 text: what a limit "in characters" counts.
std::size_t utf8_length(std::string_view text);

// Every JSON the engine reads from outside goes through here.  Nesting
// deeper than `max_depth` or text longer than `max_bytes` is refused before
// the library could recurse on it; every failure is one InputError line
// that starts with `what` (e.g. "checkpoint x.json").
struct JsonLimits {
  std::size_t max_depth = 64;
  std::size_t max_bytes = kMaxInputBytes;
};
nlohmann::json parse_json(std::string_view text, const std::string& what, JsonLimits limits = {});

}  // namespace magic
