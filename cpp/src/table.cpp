#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "columns.h"
#include "kernels.h"
#include "oscillators.h"
#include "posenc/posenc.h"
#include "precision.h"

namespace posenc {

namespace {
// Rows per kernel call: enough to load and store a block's state rarely.
constexpr int64_t kRowsPerKernelCall = 8;
// Oscillators per tile: their float64 state (40 bytes each) and the tile's
// rows (8 x 1 KB) stay in L1.
constexpr size_t kTileOscillators = 128;
// Rows that every tile writes before the next rows are started: about this
// many bytes (at least 8 rows), so that each row is finished while it is in
// cache and memory sees one stream of whole rows. A tile going down 1024 rows
// of a 32 MB table spread its writes over 4 MB: written in place, the table
// took 6.4-6.7 ms instead of ~5.3 (Node, 8192 x 1024; 128 KB groups: 6.0).
constexpr size_t kGroupBytes = 32 * 1024;

// Whether the sin and cos segments a tile writes into one concat row (n
// floats apart) fall on the same L1 sets, i.e. lie within a segment's length
// of each other modulo 4 KB (the span of the 64 sets of a 32 KB 8-way L1).
bool halvesShareL1Sets(size_t n) {
  const size_t segmentBytes = std::min(n, kTileOscillators) * sizeof(float);
  const size_t apart = n * sizeof(float) % 4096;
  return std::min(apart, 4096 - apart) < segmentBytes;
}

// One sinusoid of a float64 row: wave(position * frequency) into its columns
// (-1: none). Both members of a pair that share a frequency are one wave.
struct Wave {
  double frequency;
  int32_t sinColumn, cosColumn;
};

// The waves of a float64 row: one per pair where its members share a
// frequency, else one per column. Null if out of memory (then row() per row).
std::unique_ptr<Wave[]> findWaves(const Encoding& e, size_t& count) {
  const int32_t n = pairCount(e);
  // Members of a pair share one angle, rounded or not.
  const bool shared = e.angle == Angle::kDivide && e.exponent != Exponent::kColumn;
  const int32_t lone = hasLoneColumn(e) ? 1 : 0;  // its own wave, pair n or column 2n
  count = static_cast<size_t>((shared ? n : 2 * n) + lone);
  std::unique_ptr<Wave[]> waves(new (std::nothrow) Wave[count > 0 ? count : 1]);
  if (!waves) return waves;
  for (size_t w = 0; w < count; ++w) waves[w] = {0.0, -1, -1};
  for (int32_t j = 0; j < 2 * n + lone; ++j) {
    const detail::Column col = detail::column(e, j);
    // Both members of a pair have the same exponent, so the same frequency.
    Wave& wave = waves[shared ? static_cast<size_t>(col.pair) : static_cast<size_t>(j)];
    wave.frequency = detail::frequency(e, col.exponent);
    (col.usesSin ? wave.sinColumn : wave.cosColumn) = j;
  }
  return waves;
}
}  // namespace

struct TableWriter::State {
  Encoding e;
  int64_t nextRow;
  bool recurrence;  // float32 rows by recurrence (pairs share a frequency)
  std::unique_ptr<detail::Oscillators> bank;
  detail::LoneColumn lone = {};                      // the odd last column, when hasLoneColumn(e)
  int64_t stepsSinceSeed = detail::kReseedInterval;  // seed before the first row
  // Rows evaluated directly: their waves, found at the first write (see writeDirect).
  std::unique_ptr<Wave[]> waves = nullptr;
  size_t waveCount = 0;
  // Where angles are rounded: the waves' frequencies side by side, and one
  // row's angles, sines and cosines (3 * waveCount), taken a row at a time.
  std::unique_ptr<double[]> frequencies = nullptr, rowScratch = nullptr;
  detail::AngleSinCos angleSinCos{e.precision.angle};
  // One tile's concat rows, densely packed, where their halves share L1 sets: see write().
  alignas(16) float tileRows[kRowsPerKernelCall * 2 * kTileOscillators] = {};
  // float32 rows of angle 'ratio-power': each column's exponent as a multiple of powerStep (-1: a
  // zero column) and its member, and one row's powers, found at the first such row (writePowerRow).
  std::unique_ptr<int32_t[]> powerSteps = nullptr;
  std::unique_ptr<bool[]> powerUsesSin = nullptr;
  std::unique_ptr<double[]> powers = nullptr;
  double powerStep = 0;
  int32_t largestPowerStep = 0;

  bool findWavesOnce();
  bool findPowerStepsOnce();
  bool writePowerRow(double position, float* values);
  void roundedSinCos(double position);
  template <typename T>
  void writeDirect(T* out, int64_t rows);
  template <typename T>
  void writeWaves(double position, T* values);
  template <typename T>
  void row(double position, T* out);
};

TableWriter::TableWriter(const Encoding& e, int64_t firstRow)
    : state_(new (std::nothrow) State{e, firstRow, pairsShareFrequency(e), nullptr}) {
  if (state_ && validate(e) != nullptr) state_.reset();
  if (!state_ || !state_->recurrence) return;
  if (hasLoneColumn(e)) state_->lone = detail::LoneColumn(e);
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

void TableWriter::restart(int64_t firstRow) {
  if (!state_) return;
  state_->nextRow = firstRow;
  state_->stepsSinceSeed = detail::kReseedInterval;  // seed before the next row
  if (state_->bank) state_->bank->rememberNextSeed();
}

void TableWriter::write(float* out, int64_t rows) {
  if (!state_) return;
  State& st = *state_;
  const Encoding& e = st.e;
  const size_t d = static_cast<size_t>(e.dModel);
  if (!st.recurrence) {
    st.writeDirect(out, rows);
    return;
  }
  detail::Oscillators& oscillators = *st.bank;
  // One place suits every kernel call only where each call's rows fall on the
  // same offsets modulo 4 KB (8 rows a multiple of 4 KB: d a multiple of 128);
  // elsewhere the offsets turn from call to call and moving would not pay.
  if (kRowsPerKernelCall * d * sizeof(float) % 4096 == 0)
    oscillators.placeAwayFrom(out, d * sizeof(float), static_cast<size_t>(kRowsPerKernelCall));
  const kernels::Bank bank = oscillators.bank();
  const size_t n = bank.size;
  const int64_t groupRows =
      std::max<int64_t>(kRowsPerKernelCall, static_cast<int64_t>(kGroupBytes / (d * sizeof(float))) /
                                                kRowsPerKernelCall * kRowsPerKernelCall);
  // The kernel writes straight into the rows, 8 per call: faster at every d
  // than going through the dense buffer, rows 4 KB apart included (2048 x 512
  // in 0.31 instead of 0.41 ms, Node and Chromium), except where the halves
  // of a concat row are a multiple of 4 KB apart (d = 2048, 4096): a call would
  // put 16 lines on one 8-way L1 set (0.69 instead of 0.45 ns per value).
  const bool throughBuffer = e.layout == Layout::kConcat && halvesShareL1Sets(n);
  // Runs of rows between reseeds; within a run, groups of kGroupBytes of rows;
  // within a group, one tile of oscillators at a time goes down all the rows,
  // so its state stays in L1 while the rows stream out.
  for (int64_t r = 0; r < rows;) {
    if (st.stepsSinceSeed == detail::kReseedInterval) {
      oscillators.seed(e.start + static_cast<double>(st.nextRow));
      st.stepsSinceSeed = 0;
    }
    const int64_t run = std::min(rows - r, detail::kReseedInterval - st.stepsSinceSeed);
    float* runStart = out + static_cast<size_t>(r) * d;
    for (int64_t group = 0; group < run; group += groupRows) {
      const int64_t groupEnd = std::min(run, group + groupRows);
      for (size_t first = 0; first < n; first += kTileOscillators) {
        const size_t count = std::min(n - first, kTileOscillators);
        const kernels::Bank tile = kernels::slice(bank, first, count);
        for (int64_t done = group; done < groupEnd; done += kRowsPerKernelCall) {
          const size_t rowsNow = static_cast<size_t>(std::min(groupEnd - done, kRowsPerKernelCall));
          float* dst = runStart + static_cast<size_t>(done) * d;
          if (e.layout == Layout::kInterleaved) {
            kernels::writeInterleavedRows(tile, rowsNow, dst + 2 * first, d);
          } else if (!throughBuffer) {
            kernels::writeSplitRows(tile, rowsNow, dst + first, dst + n + first, d);
          } else {
            // The kernel writes a dense buffer whose two halves are then
            // copied out, row by row.
            float* tileRows = st.tileRows;
            const size_t tileStride = 2 * count;
            kernels::writeSplitRows(tile, rowsNow, tileRows, tileRows + count, tileStride);
            for (size_t k = 0; k < rowsNow; ++k, dst += d, tileRows += tileStride) {
              kernels::copy(dst + first, tileRows, count);
              kernels::copy(dst + n + first, tileRows + count, count);
            }
          }
        }
      }
    }
    for (int64_t k = 0; k < run; ++k) {
      float* written = runStart + static_cast<size_t>(k) * d;
      // The odd last column has no partner to step with: one sin or cos per row.
      if (hasLoneColumn(e))
        written[d - 1] = static_cast<float>(st.lone.at(e.start + static_cast<double>(st.nextRow + k)));
      else if (e.dModel % 2 == 1)
        written[d - 1] = 0.0f;
      if (st.nextRow + k == e.paddingRow) std::memset(written, 0, d * sizeof(float));
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
  state_->writeDirect(out, rows);
}

// Whether the waves are there (found at the first call; not for angle
// 'ratio-power', nor without memory: then rows are evaluated with row()).
bool TableWriter::State::findWavesOnce() {
  if (waves || e.angle == Angle::kRatioPower) return waves != nullptr;
  waves = findWaves(e, waveCount);
  if (!waves || linearAngles(e.precision)) return waves != nullptr;
  frequencies.reset(new (std::nothrow) double[waveCount]);
  rowScratch.reset(new (std::nothrow) double[3 * waveCount]);
  if (!frequencies || !rowScratch) {
    waves.reset();
    return false;
  }
  for (size_t w = 0; w < waveCount; ++w) frequencies[w] = waves[w].frequency;
  return true;
}

// Each column's exponent as a multiple k * step of one step (e = 2i/d, i/(n - 1), 2j/d), unless
// exponents are rounded to a dtype (then they are no exact multiples, and the pow stays).
bool TableWriter::State::findPowerStepsOnce() {
  if (powerSteps) return true;
  if (e.precision.exponent != Dtype::kFloat64) return false;
  const int32_t n = pairCount(e);
  powerStep = e.exponent == Exponent::kHalfMinusOne ? 1.0 / (n > 1 ? n - 1 : 1) : 2.0 / e.dModel;
  powerSteps.reset(new (std::nothrow) int32_t[e.dModel]);
  powerUsesSin.reset(new (std::nothrow) bool[e.dModel]);
  powers.reset(new (std::nothrow) double[e.dModel + 1]);
  if (!powerSteps || !powerUsesSin || !powers) {
    powerSteps.reset();
    return false;
  }
  for (int32_t j = 0; j < e.dModel; ++j) {
    const detail::Column col = detail::column(e, j);
    const int32_t k = e.exponent == Exponent::kColumn ? j : col.pair;
    powerSteps[j] = col.zero ? -1 : k;
    powerUsesSin[j] = col.usesSin;
    if (!col.zero) largestPowerStep = std::max(largestPowerStep, k);
  }
  return true;
}

// A float32 row of angle 'ratio-power', (pos/base)^(k step) for each column's k: the powers of
// (pos/base)^step by multiplication, a pow every kPowerReseed of them, instead of a pow per value
// (the question's 2048 x 512 table in about a third of the time). An angle errs by at most ~30 ulps
// against pow's half (the multiplications since the last pow, and step * k against the exponent
// rounded once), 2e-10 in absolute terms where this is used (angles up to 2^16): far under float32's
// rounding. Elsewhere, at position 0, and in float64 tables (row()'s very bits, as NumPy's pow gives
// them) the pow per value stays. False: not here.
bool TableWriter::State::writePowerRow(double position, float* values) {
  constexpr int32_t kPowerReseed = 16;
  const double ratio = position / e.base;
  if (!(ratio > 0) || !findPowerStepsOnce()) return false;
  if (ratio > 1 && std::pow(ratio, powerStep * largestPowerStep) > 65536.0) return false;
  const double factor = std::pow(ratio, powerStep);
  for (int32_t k = 0; k <= largestPowerStep; ++k)
    powers[k] = k % kPowerReseed == 0 ? std::pow(ratio, powerStep * k) : powers[k - 1] * factor;
  for (int32_t j = 0; j < e.dModel; ++j) {
    const int32_t k = powerSteps[j];
    if (k < 0) {
      values[j] = 0.0f;
      continue;
    }
    const double value = powerUsesSin[j] ? std::sin(powers[k]) : std::cos(powers[k]);
    values[j] = static_cast<float>(e.scale * value);
  }
  return true;
}

// Rows evaluated value by value, each row()'s double rounded once to T, but
// with each wave's frequency taken once (row() computes a pow per value) and
// sin and cos of a pair from one sincos: the same doubles, so the same bits
// (tested). float64 512 x 128: 0.62 instead of 2.6 ms; float32 2048 x 512
// with the column exponent: 14 instead of 39 ms.
template <typename T>
void TableWriter::State::writeDirect(T* out, int64_t rows) {
  const bool haveWaves = findWavesOnce();
  const size_t d = static_cast<size_t>(e.dModel);
  // A row depends on its rounded position only: where positions are rounded,
  // rows that round to the previous row's position repeat it (float16
  // positions from 2048 up, bfloat16 from 256 up come in runs of 2, 4, ...).
  const bool positionsRounded = e.precision.position != Dtype::kFloat64;
  const bool powerRows = e.angle == Angle::kRatioPower && linearAngles(e.precision);
  const T* previous = nullptr;
  double previousPosition = 0;
  for (int64_t r = 0; r < rows; ++r, ++nextRow) {
    T* values = out + static_cast<size_t>(r) * d;
    const double position = e.start + static_cast<double>(nextRow);
    if constexpr (std::is_same<T, float>::value) {
      if (powerRows && nextRow != e.paddingRow && writePowerRow(position, values)) continue;
    }
    if (!haveWaves || nextRow == e.paddingRow) {
      detail::tableRow(e, nextRow, values);
      previous = nullptr;
      continue;
    }
    if (positionsRounded) {
      const double rounded = roundTo(e.precision.position, position);
      if (previous && std::memcmp(&rounded, &previousPosition, sizeof rounded) == 0) {
        std::memcpy(values, previous, d * sizeof(T));
        continue;
      }
      previous = values;
      previousPosition = rounded;
    }
    writeWaves(position, values);
  }
}

// The sines and cosines of a row's rounded angles, into rowScratch after its
// angles (once for both output types: writeWaves is instantiated four times).
void TableWriter::State::roundedSinCos(double position) {
  double* angles = rowScratch.get();
  detail::roundedAngles(e.precision.angle, roundTo(e.precision.position, position), frequencies.get(),
                        waveCount, angles);
  angleSinCos.evaluate(angles, waveCount, angles + waveCount, angles + 2 * waveCount);
}

// One row's values from the waves, each angle rounded as roundedAngle() does:
// the position once per row, the angles a row at a time (roundedAngles), and
// their sin and cos kept by bit pattern for float16 and bfloat16 angles
// (AngleSinCos). float16 angles, 8192 x 1024 float32: see docs/precision.md.
template <typename T>
void TableWriter::State::writeWaves(double position, T* values) {
  if (linearAngles(e.precision)) {
    for (size_t w = 0; w < waveCount; ++w) {
      const Wave& wave = waves[w];
      const double angle = position * wave.frequency;
      if (wave.sinColumn >= 0 && wave.cosColumn >= 0) {
        double sn, cs;
        detail::sinCos(angle, &sn, &cs);
        values[wave.sinColumn] = static_cast<T>(e.scale * sn);
        values[wave.cosColumn] = static_cast<T>(e.scale * cs);
      } else if (wave.sinColumn >= 0) {
        values[wave.sinColumn] = static_cast<T>(e.scale * std::sin(angle));
      } else {
        values[wave.cosColumn] = static_cast<T>(e.scale * std::cos(angle));
      }
    }
  } else {
    roundedSinCos(position);
    const double* sines = rowScratch.get() + waveCount;
    const double* cosines = sines + waveCount;
    for (size_t w = 0; w < waveCount; ++w) {
      const Wave& wave = waves[w];
      if (wave.sinColumn >= 0) values[wave.sinColumn] = static_cast<T>(e.scale * sines[w]);
      if (wave.cosColumn >= 0) values[wave.cosColumn] = static_cast<T>(e.scale * cosines[w]);
    }
  }
  if (e.dModel % 2 == 1 && !hasLoneColumn(e)) values[e.dModel - 1] = T(0);
}

// posenc::row() with the waves: the same values without a pow per column.
template <typename T>
void TableWriter::State::row(double position, T* out) {
  const bool padding = detail::isPaddingPosition(e, position);
  if (!findWavesOnce() || padding)
    detail::evaluateRow(e, position, padding, out);
  else
    writeWaves(position, out);
}

void TableWriter::row(double position, float* out) {
  if (state_) state_->row(position, out);
}
void TableWriter::row(double position, double* out) {
  if (state_) state_->row(position, out);
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
