#pragma once
// How a problem's solutions are drawn (the report library draws them).

namespace magic {

enum class Picture { Grid, Star, Circle, Figure, Graph };

}  // namespace magic
