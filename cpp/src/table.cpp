#include <algorithm>
#include <cstring>

#include "columns.h"
#include "kernels.h"
#include "oscillators.h"
#include "posenc/posenc.h"

namespace posenc {

namespace detail {

std::unique_ptr<double[]> pairFrequencies(const Encoding& e) {
  const int32_t n = pairCount(e);
  std::unique_ptr<double[]> w(new (std::nothrow) double[n > 0 ? n : 1]);
  if (!w) return w;
  for (int32_t i = 0; i < n; ++i) {
    // Column 2i (interleaved) or i (concat) is the first member of pair i.
    const int32_t j = e.layout == Layout::kInterleaved ? 2 * i : i;
    w[i] = frequency(e, column(e, j).exponent);
  }
  return w;
}

}  // namespace detail

namespace {
constexpr int64_t kRowsPerKernelCall = 4;
}

struct TableWriter::State {
  Encoding e;
  int64_t nextRow;
  bool recurrence;  // float32 rows by recurrence (pairs share a frequency)
  std::unique_ptr<detail::Oscillators> bank;
  int64_t stepsSinceSeed = detail::kReseedInterval;  // seed before the first row
};

TableWriter::TableWriter(const Encoding& e, int64_t firstRow)
    : state_(new (std::nothrow) State{e, firstRow, pairsShareFrequency(e), nullptr}) {
  if (state_ && validate(e) != nullptr) state_.reset();
  if (!state_ || !state_->recurrence) return;
  const std::unique_ptr<double[]> w = detail::pairFrequencies(e);
  if (!w) {
    state_.reset();
    return;
  }
  state_->bank.reset(new (std::nothrow)
                         detail::Oscillators(w.get(), pairCount(e), e.order == Order::kCosSin, e.scale));
  if (!state_->bank || !state_->bank->ok()) state_.reset();
}

TableWriter::~TableWriter() = default;

bool TableWriter::ok() const { return state_ != nullptr; }

void TableWriter::write(float* out, int64_t rows) {
  if (!state_) return;
  State& st = *state_;
  const Encoding& e = st.e;
  const size_t d = static_cast<size_t>(e.dModel);
  if (!st.recurrence) {
    for (int64_t r = 0; r < rows; ++r, ++st.nextRow)
      row(e, e.start + static_cast<double>(st.nextRow), out + static_cast<size_t>(r) * d);
    return;
  }
  detail::Oscillators& bank = *st.bank;
  const size_t n = static_cast<size_t>(pairCount(e));
  // Runs of rows between reseeds go to the kernel in one call.
  for (int64_t r = 0; r < rows;) {
    if (st.stepsSinceSeed == detail::kReseedInterval) {
      bank.seed(e.start + static_cast<double>(st.nextRow));
      st.stepsSinceSeed = 0;
    }
    // Short runs keep the rows being written in L1 while the oscillators stay in registers.
    const int64_t run = std::min({rows - r, detail::kReseedInterval - st.stepsSinceSeed, kRowsPerKernelCall});
    float* dst = out + static_cast<size_t>(r) * d;
    if (e.layout == Layout::kInterleaved)
      kernels::writeInterleavedRows(bank.bank(), run, dst, d);
    else
      kernels::writeSplitRows(bank.bank(), run, dst, dst + n, d);
    for (int64_t k = 0; k < run; ++k) {
      float* written = dst + static_cast<size_t>(k) * d;
      if (e.dModel % 2 == 1) written[d - 1] = 0.0f;
      if (detail::isPaddingPosition(e, e.start + static_cast<double>(st.nextRow + k)))
        std::memset(written, 0, d * sizeof(float));
    }
    r += run;
    st.nextRow += run;
    st.stepsSinceSeed += run;
  }
}

void TableWriter::write(double* out, int64_t rows) {
  // float64 rows are evaluated directly so they equal sin(fl(pos * w)) to
  // the last bits, as any float64 reference computes them.
  if (!state_) return;
  State& st = *state_;
  for (int64_t r = 0; r < rows; ++r, ++st.nextRow)
    row(st.e, st.e.start + static_cast<double>(st.nextRow),
        out + static_cast<size_t>(r) * static_cast<size_t>(st.e.dModel));
}

bool table(const Encoding& e, int64_t length, float* out) {
  TableWriter writer(e, 0);
  if (!writer.ok()) return false;
  writer.write(out, length);
  return true;
}

bool table(const Encoding& e, int64_t length, double* out) {
  TableWriter writer(e, 0);
  if (!writer.ok()) return false;
  writer.write(out, length);
  return true;
}

}  // namespace posenc
