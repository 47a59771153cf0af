#pragma once
// The engine's one error base.  Everything the engine throws on purpose is a
// magic::Error and speaks of the problem, never of a command-line flag; the
// app maps the kinds to exit codes in one place.  A std::logic_error that
// escapes is a bug in the engine, not bad input.
#include <stdexcept>

namespace magic {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
  ~Error() override;  // out of line: one home for the vtable and type info
};

// A problem or run that cannot be set up as asked: unknown problem, a
// parameter out of range, a malformed spec or grid, an impossible option mix.
struct SpecError : Error {
  using Error::Error;
};

// Input text that cannot be read as what it claims to be: bad JSON, nesting
// too deep, a file too large.
struct InputError : SpecError {
  using SpecError::SpecError;
};

// A file that cannot be read, written or renamed.
struct IoError : Error {
  using Error::Error;
};

// The hash set would need more memory than it was allowed.
struct MemoryLimitError : Error {
  using Error::Error;
};

// A checkpoint of another run, or one that cannot be parsed.
struct CheckpointError : Error {
  using Error::Error;
};

}  // namespace magic
