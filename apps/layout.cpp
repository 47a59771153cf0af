#include "layout.hpp"

#include "cli_common.hpp"  // UsageError

#include <filesystem>
#include <system_error>

namespace cli {
namespace fs = std::filesystem;

namespace {

bool same_dir(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// P/<relative> for the install prefix P, or the absolute path as given.
fs::path under(const fs::path& prefix, const fs::path& p) { return p.is_absolute() ? p : prefix / p; }

}  // namespace

std::string self_path() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

Layout find_layout(const std::string& data_override) {
  const fs::path bin = fs::path(self_path()).parent_path();
  Layout out;
  if (!bin.empty() && same_dir(bin, MAGIC_BUILD_BIN_DIR)) {
    out.data = MAGIC_SOURCE_DATA_DIR;
    out.helpers = bin.string();
  } else {
    // P is as many levels above the binary as the install's bin dir is deep.
    fs::path prefix = bin;
    for (const auto& part : fs::path(MAGIC_INSTALL_BIN_DIR))
      if (!part.empty() && part != ".") prefix = prefix.parent_path();
    // Installed: its own prefix only, never the tree it was built from
    // (which may hold other data, or be gone); data that is missing there
    // is an error where it is needed (require_data).
    out.installed = true;
    out.data = under(prefix, MAGIC_INSTALL_DATA_DIR).string();
    out.helpers = under(prefix, MAGIC_INSTALL_HELPERS_DIR).string();
  }
  if (!data_override.empty()) out.data = data_override;
  return out;
}

std::string require_data(const Layout& layout, const std::string& what) {
  if (is_dir(layout.data)) return layout.data;
  throw UsageError("no data directory " + layout.data + " (for " + what + "): " +
                   (layout.installed ? "this copy was installed without it; reinstall, or give --data DIR"
                                     : "give --data DIR"));
}

}  // namespace cli
