#include <algorithm>
#include <cmath>
#include <cstring>

#include "columns.h"
#include "posenc/elsewhere.h"

namespace posenc {

namespace {

// Runs shorter than this are evaluated row by row: a writer for a run costs
// a pow per pair and seeding the recurrence a sin and cos per pair.
constexpr int64_t kMinRun = 4;

// How many positions from k on step by `step` (+1 or -1) from an integer.
int64_t runLength(const double* positions, int64_t k, int64_t count, double step) {
  const double first = positions[k];
  if (first != std::floor(first)) return 1;
  int64_t run = 1;
  while (k + run < count && positions[k + run] == first + step * static_cast<double>(run)) ++run;
  return run;
}

template <typename T>
bool rowsAtPositions(const Encoding& e, const double* positions, int64_t count, T* out) {
  if (validate(e) != nullptr) return false;
  for (int64_t k = 0; k < count; ++k)
    if (!(std::abs(positions[k]) <= kMaxMagnitude)) return false;
  // Rows at positions 0 + index; the padding row is decided by position below.
  Encoding atZero = e;
  atZero.start = 0;
  atZero.paddingRow = -1;
  TableWriter writer(atZero, 0);
  if (!writer.ok()) return false;
  const size_t d = static_cast<size_t>(e.dModel);
  for (int64_t k = 0; k < count;) {
    T* rows = out + static_cast<size_t>(k) * d;
    int64_t run = 1;
    double step = 0;
    if (k + 1 < count) {
      step = positions[k + 1] - positions[k];
      if (step == 1 || step == -1) run = runLength(positions, k, count, step);
    }
    if (run >= kMinRun) {
      // The ascending rows from the run's smallest position, reversed for a
      // descending run. A writer of its own, starting at row 0: the writers
      // take row index -1 for "no padding row", so no row index may be negative.
      Encoding fromLowest = atZero;
      fromLowest.start = step > 0 ? positions[k] : positions[k + run - 1];
      TableWriter runWriter(fromLowest, 0);
      if (!runWriter.ok()) return false;
      runWriter.write(rows, run);
      if (step < 0)
        for (int64_t a = 0, b = run - 1; a < b; ++a, --b)
          std::swap_ranges(rows + static_cast<size_t>(a) * d, rows + static_cast<size_t>(a + 1) * d,
                           rows + static_cast<size_t>(b) * d);
    } else {
      run = 1;
      writer.row(positions[k], rows);
    }
    k += run;
  }
  if (e.paddingRow >= 0)
    for (int64_t k = 0; k < count; ++k)
      if (detail::isPaddingPosition(e, positions[k]))
        std::fill(out + static_cast<size_t>(k) * d, out + static_cast<size_t>(k + 1) * d, T(0));
  return true;
}

}  // namespace

bool rowsAt(const Encoding& e, const double* positions, int64_t count, float* out) {
  return rowsAtPositions(e, positions, count, out);
}
bool rowsAt(const Encoding& e, const double* positions, int64_t count, double* out) {
  return rowsAtPositions(e, positions, count, out);
}

}  // namespace posenc
