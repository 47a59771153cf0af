#include "magic/io.hpp"

#include "magic/digest.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace magic {

namespace {

// Temporary files are named .<name>.magic-tmp-<pid>-XXXXXX beside their
// target, so a later run can tell its own kind and remove those whose
// process is gone (a SIGKILL leaves them behind).
// The whole name must fit in a directory entry (255 bytes on every Linux
// file system): a long target name is cut and tagged with its hash, so two
// long names never share a prefix.
std::string temp_prefix(const std::filesystem::path& target) {
  constexpr std::size_t kNameMax = 255;
  constexpr std::size_t kAdded = 1 + 11 + 10 + 1 + 6;  // '.', ".magic-tmp-", a pid, '-', XXXXXX
  std::string name = target.filename().string();
  if (name.size() > kNameMax - kAdded) {
    char tag[18];
    std::snprintf(tag, sizeof tag, "~%016llx", static_cast<unsigned long long>(hash64(name.data(), name.size())));
    name = name.substr(0, kNameMax - kAdded - 17) + tag;
  }
  return "." + name + ".magic-tmp-";
}

void remove_stale_temps(const std::filesystem::path& target) {
  const std::string prefix = temp_prefix(target);
  std::error_code ec;
  const auto dir = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(e.path(), ec);
  }
}

// The mode of the file being replaced, or the default of a new file.
mode_t new_file_mode(const std::string& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

// A symlink's target is replaced, never the link, so links are followed
// even when the target does not exist yet.
std::string resolve_links(const std::string& path) {
  std::filesystem::path p = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec)); ++hops) {
    const auto to = std::filesystem::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();
}

std::size_t write_all(int fd, std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::string real_path(const std::string& path) {
  std::error_code ec;
  const auto abs = std::filesystem::absolute(resolve_links(path), ec);
  if (ec) return path;
  const auto p = std::filesystem::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal().string() : p.string();
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat x {}, y {};
  if (::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0)
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino;  // hard links too
  return real_path(a) == real_path(b);
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw IoError("empty output path");
  if (path_ == "-") {
    f_ = stdout;
    stdout_ = true;
    return;
  }
  // A device, a FIFO or a link to one is written straight through: renaming
  // a temp file over /dev/null would replace the device with a plain file.
  std::error_code ec;
  const auto st = std::filesystem::status(path_, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    if (std::filesystem::is_directory(st)) throw IoError("cannot write " + path_ + ": it is a directory");
    f_ = std::fopen(path_.c_str(), "w");
    if (!f_) throw IoError("cannot open " + path_ + ": " + std::strerror(errno));
    direct_ = true;
    return;
  }
  target_ = resolve_links(path_);
  remove_stale_temps(target_);
  const auto t = std::filesystem::path(target_);
  tmp_ = (t.parent_path() / (temp_prefix(t) + std::to_string(::getpid()) + "-XXXXXX")).string();
  const int fd = ::mkstemp(tmp_.data());
  if (fd < 0) throw IoError("cannot create " + path_ + ": " + std::strerror(errno));
  ::fchmod(fd, new_file_mode(target_));  // mkstemp makes 0600; the result gets what a plain create would
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
  if (!committed_ && !direct_) ::unlink(tmp_.c_str());
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
    // Straight to the descriptor, resumed after a signal: stdio gives up on
    // EINTR, which would leave half a document on a slow pipe.
    if (std::fflush(f_) != 0 || write_all(::fileno(f_), held_) != held_.size())
      throw IoError("write to standard output failed: " + std::string(std::strerror(errno)));
    held_.clear();
    committed_ = true;
    return;
  }
  if (direct_) {
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) throw IoError("write to " + path_ + " failed: " + std::strerror(errno));
    committed_ = true;
    return;
  }
  if (std::fflush(f_) != 0 || ::fsync(::fileno(f_)) != 0)
    throw IoError("write to " + path_ + " failed: " + std::strerror(errno));
  const int rc = std::fclose(f_);
  f_ = nullptr;
  if (rc != 0 || std::rename(tmp_.c_str(), target_.c_str()) != 0) {
    ::unlink(tmp_.c_str());
    throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
  }
  committed_ = true;
}

namespace {
bool continues(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }  // 10xxxxxx
}  // namespace

std::string utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && continues(text[cut])) --cut;  // text[cut] starts the first character left out
  return std::string(text.substr(0, cut));
}

std::size_t utf8_length(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += !continues(c);
  return n;
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

namespace {

struct TooDeep {};

// The library's own DOM builder, counting depth.  Not parse() with a
// callback: in nlohmann/json 3.11 the callback parser scans the enclosing
// container at the end of every object, which is quadratic in an array of
// objects: a result's solutions (verify of 53,528 stars took 1.36 s, now
// 0.48 s; perf/results/memory.md).
class DepthLimitedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  DepthLimitedDom(nlohmann::json& out, std::size_t max_depth) : json_sax_dom_parser(out, true), max_depth_(max_depth) {}
  bool start_object(std::size_t n) {
    enter();
    return json_sax_dom_parser::start_object(n);
  }
  bool start_array(std::size_t n) {
    enter();
    return json_sax_dom_parser::start_array(n);
  }
  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }
  bool end_array() {
    --depth_;
    return json_sax_dom_parser::end_array();
  }

 private:
  void enter() {
    if (++depth_ > max_depth_) throw TooDeep{};
  }
  std::size_t max_depth_;
  std::size_t depth_ = 0;
};

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& what, JsonLimits limits) {
  if (text.size() > limits.max_bytes)
    throw InputError(what + ": larger than " + std::to_string(limits.max_bytes) + " bytes");
  // The library reads a NUL byte as the end of the input, which would accept
  // "[[2,7,6],...]\0junk"; a text file has no NUL.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(what + ": a NUL byte at offset " + std::to_string(nul) + " (trailing data?)");
  // The library parses iteratively but destroys and prints values
  // recursively, so depth is checked while parsing, before any value exists.
  nlohmann::json out;
  try {
    DepthLimitedDom dom(out, limits.max_depth);
    nlohmann::json::sax_parse(text, &dom);
    return out;
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
