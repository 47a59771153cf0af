#pragma once
// Where the program finds its data and its helper programs, built or
// installed.  The same binary works in both places:
//
//   run from the build tree          installed under a prefix P
//   <build>/bin/magicount           P/bin/magicount
//   data:    <source>/data           P/share/magicount
//   helpers: <build>/bin             P/libexec/magicount
//
// The data directory holds documents.json, known_counts.json, figures/
// and records/; the helpers are the ports of the documents' programs that
// `reproduce` times (baseline-*).  `--data DIR` overrides the data.
#include <string>

namespace cli {

struct Layout {
  std::string data;     // the data directory
  std::string helpers;  // where baseline-* are
  bool installed = false;
};

// The layout of the running binary; `data_override` (from --data), when
// not empty, replaces the data directory.
Layout find_layout(const std::string& data_override = "");

// The layout's data directory, or a UsageError naming `what` needed it
// when it is missing.
std::string require_data(const Layout& layout, const std::string& what);

// The running binary's path ("" when the system will not say).
std::string self_path();

}  // namespace cli
