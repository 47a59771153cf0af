#pragma once
// What a family says of its command line: the subcommand's help, one
// option per spec field, how a solution prints and how it is drawn.  The
// CLI builds every family's subcommand from this (apps/cmd_family.cpp), so
// a new family gets its subcommand with no edit to the CLI.
//
//   magicount star --n 8 --all-orientations
//        |      |    |          |
//        |      |    |          +-- FieldKind::Off:  "symmetry_breaking": false
//        |      |    +------------- FieldKind::Int:  "n": 8
//        |      +------------------ FieldOption::flags "--n,-n"
//        +------------------------- FamilyCommand::name, the spec's "name"
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "magic/picture.hpp"

namespace magic {

enum class FieldKind {
  Int,      // a whole number, decimal only
  Text,     // a string, as given
  Choice,   // a string the family checks (field_values / is_field_value)
  IntList,  // comma-separated whole numbers, a JSON array
  Off,      // a flag: the field is false when it is given
  On,       // a flag: the field is true when it is given
};

// One spec field as an option.  The field is in the spec only when the
// option is given, or when it has a default (sent as that value).
struct FieldOption {
  std::string field;  // the spec's key
  std::string flags;  // CLI11 names: "--n,-n"
  FieldKind kind = FieldKind::Int;
  std::string help;
  std::string default_value;  // "": none (the spec reader's own default applies)
  bool required = false;
  std::string needs;            // another option's flag this one needs ("": none)
  std::string positive_needs;   // Int: "" or what a value < 1 is told ("more than n/2")
  // Choice: the values, as one line, and which it takes (the family's
  // field_values and is_field_value, filled in by the registry).
  std::string values;
  std::function<bool(const std::string&)> accepts;
};

// How the CLI's human summary prints one solution.
enum class SolutionText {
  Grid,           // a square's rows, then a blank line
  PointsAndSums,  // the numbers by point, the common sum, every line's sum
  Numbers,        // "[ 1 3 10 2 5 ]"
  Labels,         // a graph's: "vertices [...]  edges [...]  sum k"
};

struct FamilyCommand {
  std::string name;     // the subcommand, and the spec's "name"
  std::string summary;  // one line in `magicount --help`
  std::string footer;   // "" or more text below the subcommand's options
  std::string levels;   // what one level of --split-depth is
  std::vector<FieldOption> options;
  SolutionText text = SolutionText::Numbers;
  Picture picture = Picture::Grid;
  bool svg = true;  // whether the subcommand offers --svg
};

}  // namespace magic
