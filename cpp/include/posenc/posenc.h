// posenc: sinusoidal positional encodings ("Attention Is All You Need", §3.5)
// in every common convention, and the dot products between their rows.
//
// Plain C++17. Nothing here knows about Emscripten; the WASM SIMD path is an
// implementation detail of src/kernels.cpp. This is the library's whole public
// interface: src/encoding.cpp defines the encoding functions, src/table.cpp
// the table writer, src/dots.cpp the dot products; src/*.h are private.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace posenc {

// Every enum that crosses to JS, as X(enumerator, name in the JS options,
// value): the enums below are made from these lists, and the binding reports
// them (cpp/bindings/boundary.cpp) so that web/lib/boundary.js can check at
// load that the numbers it stages are the ones read here.
#define POSENC_ENUMERATOR(id, name, value) id = value,

// Where the two members of a pair go in a row (or a RoPE head) of n pairs.
//   interleaved: pair i -> columns 2i, 2i+1 (the paper, PyTorch tutorial;
//                RoPE: GPT-J, GGML NORMAL, RoFormer)
//   concat/half: pair i -> columns i, n+i, [sin block | cos block]
//                (tensor2tensor); RoPE calls it 'half' (HF rotate_half,
//                GPT-NeoX, GGML NEOX)
#define POSENC_LAYOUTS(X)           \
  X(kInterleaved, "interleaved", 0) \
  X(kConcat, "concat", 1)           \
  X(kHalf, "half", 1)

// What the frequency exponent e in w = base^(-e) is computed from.
//   pair: e = 2i/d for pair i (the paper)
//   half-minus-one: e = i/(d/2 - 1) (tensor2tensor, fairseq)
//   column: e = 2j/d for column j (sin and cos get different frequencies)
#define POSENC_EXPONENTS(X)             \
  X(kPair, "pair", 0)                   \
  X(kHalfMinusOne, "half-minus-one", 1) \
  X(kColumn, "column", 2)

// Which function comes first in a pair.
#define POSENC_ORDERS(X) X(kSinCos, "sin-cos", 0) X(kCosSin, "cos-sin", 1)

// How the angle is formed from the position.
//   divide: pos * w = pos / base^e (correct)
//   ratio-power: (pos / base)^e (a well-known mistake; not a sinusoid of pos)
#define POSENC_ANGLES(X) X(kDivide, "divide", 0) X(kRatioPower, "ratio-power", 1)

// What the last column of an odd dModel holds (it has no pair partner).
//   formula: the formula continued: column d-1 = 2i is the first member of
//            pair i = (d-1)/2, e.g. sin(pos / base^((d-1)/d)) (the paper,
//            Hugging Face, Keras-NLP)
//   zero: zeros (tensor2tensor and fairseq pad with a zero column)
#define POSENC_ODD_COLUMNS(X) X(kFormula, "formula", 0) X(kZero, "zero", 1)

// A number format a value can be rounded to between steps, as frameworks hold
// positions, frequencies and angles in their tensors' dtype.
#define POSENC_DTYPES(X)    \
  X(kFloat64, "float64", 0) \
  X(kFloat32, "float32", 1) \
  X(kFloat16, "float16", 2) \
  X(kBfloat16, "bfloat16", 3)

enum class Layout : int32_t { POSENC_LAYOUTS(POSENC_ENUMERATOR) };
enum class Exponent : int32_t { POSENC_EXPONENTS(POSENC_ENUMERATOR) };
enum class Order : int32_t { POSENC_ORDERS(POSENC_ENUMERATOR) };
enum class Angle : int32_t { POSENC_ANGLES(POSENC_ENUMERATOR) };
enum class OddColumn : int32_t { POSENC_ODD_COLUMNS(POSENC_ENUMERATOR) };
enum class Dtype : int32_t { POSENC_DTYPES(POSENC_ENUMERATOR) };

// x rounded once to `format`: to nearest, ties to even (what frameworks'
// casts do). float16 is IEEE binary16 (subnormals below 2^-14, +-inf from
// 65520 up); bfloat16 has float32's exponent range and 8 significant bits.
// NaN stays NaN; kFloat64 returns x.
double roundTo(Dtype format, double x);

// Where a table's angles lose precision, step by step: the exponent e of
// w = base^(-e), the frequency w, the position, and the angle position * w,
// each rounded to its format before the next step uses it. sin and cos of
// the rounded angle are then exact (float64); the output is rounded to the
// table's type. All kFloat64: the exact table.
struct Precision {
  Dtype exponent = Dtype::kFloat64;
  Dtype frequency = Dtype::kFloat64;
  Dtype position = Dtype::kFloat64;
  Dtype angle = Dtype::kFloat64;
};

// The angle of a rounded frequency w at `position`: round(round(position) * w).
// Products of values of at most float32's precision are exact in float64, so
// this is the one rounding a framework's product in that format makes.
inline double roundedAngle(const Precision& p, double position, double w) {
  return roundTo(p.angle, roundTo(p.position, position) * w);
}

// nullptr when every format of `p` is a Dtype, else a static message.
const char* validate(const Precision& p);

// True when angles are position * w in float64 (positions and angles not rounded).
inline bool linearAngles(const Precision& p) {
  return p.position == Dtype::kFloat64 && p.angle == Dtype::kFloat64;
}

// A fully resolved convention: every knob explicit. Presets live in the JS API.
struct Encoding {
  int32_t dModel = 512;
  Layout layout = Layout::kInterleaved;
  Exponent exponent = Exponent::kPair;
  Order order = Order::kSinCos;
  Angle angle = Angle::kDivide;
  double base = 10000.0;        // max/min timescale ratio
  double frequencyScale = 1.0;  // tensor2tensor multiplies every frequency by min_timescale
  double start = 0.0;           // position of table row 0
  int64_t paddingRow = -1;      // table row that is all zeros (-1: none)
  double scale = 1.0;           // every value is multiplied by this
  OddColumn oddColumn = OddColumn::kFormula;
  Precision precision = {};  // how frameworks' dtypes round it (default: exact)
};

// nullptr when `e` is usable, else a static message naming the bad field.
const char* validate(const Encoding& e);

// Number of complete (sin, cos) pairs; an odd dModel adds one last column.
inline int32_t pairCount(const Encoding& e) { return e.dModel / 2; }

// True when the odd last column holds a sinusoid without its partner.
inline bool hasLoneColumn(const Encoding& e) {
  return e.dModel % 2 == 1 && e.oddColumn == OddColumn::kFormula;
}

// True when both members of every pair share one frequency and each pair is
// one rotating phasor (its angle position * w, not rounded).
bool pairsShareFrequency(const Encoding& e);

// True when PE(p) . PE(p+k) = scale^2 * sum_i cos(w_i k) depends on k only:
// pairs share a frequency and no lone column adds sin(w p) sin(w (p+k)).
bool offsetOnlyDots(const Encoding& e);

// Angular frequency of each column (dModel values): w_j = frequencyScale * base^(-e_j)
// (e_j and then w_j rounded per e.precision);
// 0 for a zero odd last column; NaN for every other column when angle is
// kRatioPower (the angle is then not linear in position, so no frequency exists).
void columnFrequencies(const Encoding& e, double* out);

// One row at any real position (fractional, negative, beyond the table).
// At the padding row's position, start + paddingRow, the row is all zeros.
// With Angle::kRatioPower, (pos / base)^e is NaN at negative positions for
// every non-integer exponent e (the JS API refuses negative positions).
void row(const Encoding& e, double position, double* out);
void row(const Encoding& e, double position, float* out);

// Writes table rows in order, a chunk at a time, so a caller can copy each
// chunk out while it is still in cache. Float32 rows of conventions whose
// pairs share a frequency use an angle-addition recurrence in float64
// (reseeded from exact sin/cos); everything else is evaluated directly.
class TableWriter {
 public:
  TableWriter(const Encoding& e, int64_t firstRow);
  ~TableWriter();
  TableWriter(const TableWriter&) = delete;
  TableWriter& operator=(const TableWriter&) = delete;

  // Writes `rows` consecutive rows (rows * dModel values) and advances.
  void write(float* out, int64_t rows);
  void write(double* out, int64_t rows);
  // False when the scratch state could not be allocated.
  bool ok() const;
  // Starts again at row `firstRow`, keeping what the writer has set up (the
  // frequencies, their sin and cos, the scratch state) and, after a restart
  // at the same row, that row's seed: writing the same encoding's tables
  // again and again then costs the rows, not a pow, sin and cos per pair.
  void restart(int64_t firstRow);
  // The row at any position, as posenc::row() gives it (the same values),
  // from the frequencies the writer keeps: no pow per column. Neither moves
  // the writer nor depends on its row.
  void row(double position, float* out);
  void row(double position, double* out);

 private:
  struct State;  // defined in src/table.cpp
  std::unique_ptr<State> state_;
};

// s(k) = PE(from) . PE(from + k) for k = minOffset..maxOffset (out[k - minOffset]),
// accumulated in float64. Closed forms where every column is a sinusoid of
// position, real row products otherwise. Returns false if scratch memory is unavailable,
// for an empty or uncountable range of offsets, and for |from| > 2^53.
bool offsetDots(const Encoding& e, double from, int64_t minOffset, int64_t maxOffset, double* out);

// The [length x length] matrix of row dot products, written a chunk of rows
// at a time. Toeplitz (entry (p, q) = s(|p - q|)) where offsetOnlyDots(e),
// plus a rank-one part for a lone odd column, Toeplitz plus Hankel (a part
// in p + q) for other angle-'divide' conventions, real products of a float64
// table otherwise.
class SimilarityWriter {
 public:
  SimilarityWriter(const Encoding& e, int64_t length);
  ~SimilarityWriter();
  SimilarityWriter(const SimilarityWriter&) = delete;
  SimilarityWriter& operator=(const SimilarityWriter&) = delete;

  // Writes the next `rows` rows (at most those left of the length) and advances.
  void write(float* out, int64_t rows);
  bool ok() const;

 private:
  struct State;  // defined in src/dots.cpp
  std::unique_ptr<State> state_;
};

// Convenience wrappers over the writers: the whole table / matrix at once.
bool table(const Encoding& e, int64_t length, float* out);
bool table(const Encoding& e, int64_t length, double* out);
bool similarity(const Encoding& e, int64_t length, float* out);

// True when this build runs the WASM SIMD kernels.
bool simdEnabled();

}  // namespace posenc
