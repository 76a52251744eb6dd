#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#include "posenc/posenc.h"
#include "reference.h"

namespace {

using posenc::Encoding;

double worstError(const std::vector<float>& got, const reference::Knobs& k, long length) {
  double worst = 0;
  for (long r = 0; r < length; ++r)
    for (int j = 0; j < k.d; ++j)
      worst = std::max(worst, std::abs(got[r * k.d + j] - reference::value(k, k.start + r, j)));
  return worst;
}

TEST(Table, Float32IsRoundedFloat64ForEveryConvention) {
  for (int d : {1, 2, 5, 8, 63, 128}) {
    for (reference::Knobs k : reference::conventions(d)) {
      const long length = 2100;  // crosses reseeds of the recurrence
      std::vector<float> out(length * d);
      ASSERT_TRUE(posenc::table(reference::encoding(k), length, out.data()));
      ASSERT_LE(worstError(out, k, length), 1.2e-7) << "d=" << d;
    }
  }
}

TEST(Table, HuggingFaceAtAnOddWidth) {
  // transformers' create_sinusoidal_embeddings(n_pos, dim, out), literally:
  //   position_enc[pos][j] = pos / np.power(10000, 2 * (j // 2) / dim)
  //   out[:, 0::2] = sin(position_enc[:, 0::2]); out[:, 1::2] = cos(position_enc[:, 1::2])
  // At dim = 33 the sin columns are 0, 2, ..., 32: the last one has no cos.
  const int dim = 33;
  const long nPos = 1500;
  std::vector<float> out(nPos * dim);
  ASSERT_TRUE(posenc::table(Encoding{dim}, nPos, out.data()));
  double worst = 0;
  for (long pos = 0; pos < nPos; ++pos)
    for (int j = 0; j < dim; ++j) {
      const double angle = static_cast<double>(pos) / std::pow(10000.0, 2.0 * (j / 2) / dim);
      const double want = j % 2 == 0 ? std::sin(angle) : std::cos(angle);
      worst = std::max(worst, std::abs(out[pos * dim + j] - want));
    }
  EXPECT_LE(worst, 1.2e-7);
  EXPECT_GT(std::abs(out[1000 * dim + 32]), 0.1f);  // sin(1000 / 10000^(32/33)) = 0.13
}

TEST(Table, FrequencyScaleAndAFirstRowPastZero) {
  // tensor2tensor's min_timescale multiplies every frequency; a writer may
  // start at any row (rows firstRow.. are positions start + firstRow..).
  for (reference::Knobs k : reference::conventions(9)) {
    k.frequencyScale = 2.5;
    k.start = -4;
    const long firstRow = 1500, length = 700;  // past a reseed
    std::vector<float> f32(length * k.d);
    std::vector<double> f64(length * k.d);
    posenc::TableWriter writer32(reference::encoding(k), firstRow),
        writer64(reference::encoding(k), firstRow);
    ASSERT_TRUE(writer32.ok() && writer64.ok());
    writer32.write(f32.data(), length);
    writer64.write(f64.data(), length);
    for (long r = 0; r < length; ++r)
      for (int j = 0; j < k.d; ++j) {
        const double want = reference::value(k, k.start + static_cast<double>(firstRow + r), j);
        ASSERT_NEAR(f32[r * k.d + j], want, 1.2e-7) << r << "," << j;
        ASSERT_NEAR(f64[r * k.d + j], want, 1e-11) << r << "," << j;
      }
    std::vector<double> dots(50);
    ASSERT_TRUE(posenc::offsetDots(reference::encoding(k), 30.5, -10, 39, dots.data()));
    const std::vector<double> base = reference::row(k, 30.5);
    for (int i = 0; i < 50; ++i)
      ASSERT_NEAR(dots[i], reference::dot(base, reference::row(k, 30.5 - 10 + i)), 1e-10) << i;
  }
}

TEST(Table, WideRowsAcrossTilesOfOscillators) {
  // 150 and 257 pairs: the writer steps 128 oscillators at a time, so these
  // end in a partial tile (and, for 257, a tile of one); 100 and 128 pairs
  // fill fewer than one and exactly one.
  for (int d : {200, 256, 300, 514}) {
    for (reference::Knobs k : reference::conventions(d)) {
      const long length = 1100;  // crosses one reseed
      std::vector<float> out(length * d);
      ASSERT_TRUE(posenc::table(reference::encoding(k), length, out.data()));
      ASSERT_LE(worstError(out, k, length), 1.2e-7) << "d=" << d;
    }
  }
}

TEST(Table, ConcatHalvesA4KBMultipleApartGoThroughTheTileBuffer) {
  // Rows whose sin and cos halves lie (nearly) a multiple of 4 KB apart are
  // written through a dense buffer and copied out rather than written
  // directly (1024 pairs: exactly 4 KB; 1056: 128 bytes past, in 9 tiles).
  for (int d : {2048, 2112}) {
    for (reference::Knobs k : reference::conventions(d)) {
      if (!k.concat || k.exponent == posenc::Exponent::kColumn) continue;  // only these take the recurrence
      const long length = 21;  // three kernel calls, the last one short
      std::vector<float> out(length * d);
      ASSERT_TRUE(posenc::table(reference::encoding(k), length, out.data()));
      ASSERT_LE(worstError(out, k, length), 1.2e-7) << "d=" << d;
    }
  }
}

TEST(Table, AccuracyBoundHoldsAtPosition2To20AndDModel4096) {
  // A whole run of the recurrence, 1024 rows from one seed (its drift is
  // largest at the end), and the rows after the next seed, ending at 2^20.
  reference::Knobs k;
  k.d = 4096;
  const long length = 1024 + 8;
  k.start = 1048576.0 - (length - 1);
  std::vector<float> out(length * k.d);
  ASSERT_TRUE(posenc::table(reference::encoding(k), length, out.data()));
  double worst = 0;
  for (long r = 0; r < length; r = r == 7 ? 1000 : r + 1)  // rows 0-7, 1000-1031
    for (int j = 0; j < k.d; ++j)
      worst = std::max(worst, std::abs(out[r * k.d + j] - reference::value(k, k.start + r, j)));
  EXPECT_LE(worst, 1.2e-7);
}

TEST(Table, Float32AngleWouldFailTheBoundThatPosencMeets) {
  // Guards the test above: the framework habit of forming pos * w in float32
  // misses by far more than 1.2e-7 at position 8191, where posenc does not.
  std::vector<float> table(8192 * 512);
  ASSERT_TRUE(posenc::table(Encoding{512}, 8192, table.data()));
  double float32Angle = 0, posencError = 0;
  for (int i = 0; i < 256; ++i) {
    const double want = reference::paper(8191, 2 * i, 512);
    const float w = static_cast<float>(std::pow(10000.0, -2.0 * i / 512));
    const float angle = 8191.0f * w;
    float32Angle = std::max(float32Angle, std::abs(std::sin(static_cast<double>(angle)) - want));
    posencError = std::max(posencError, std::abs(table[8191 * 512 + 2 * i] - want));
  }
  EXPECT_GT(float32Angle, 1e-4);
  EXPECT_LE(posencError, 1.2e-7);
}

TEST(Table, Float64MatchesReferenceTo1e12) {
  for (reference::Knobs k : reference::conventions(37)) {
    k.scale = 0.5;
    const long length = 300;
    std::vector<double> out(length * k.d);
    ASSERT_TRUE(posenc::table(reference::encoding(k), length, out.data()));
    for (long r = 0; r < length; ++r)
      for (int j = 0; j < k.d; ++j) ASSERT_NEAR(out[r * k.d + j], reference::value(k, r, j), 1e-12);
  }
}

TEST(Table, Float64RowsAreRowBitForBit) {
  // The float64 writer hoists each column's frequency out of the rows; its
  // values must stay the very bits posenc::row() evaluates, in every
  // convention, with a padding row, a start, and the ratio-power angle.
  for (bool ratioPower : {false, true})
    for (reference::Knobs k : reference::conventions(37)) {
      k.ratioPower = ratioPower;
      k.start = 3;
      k.paddingRow = 5;
      k.scale = 0.75;
      const Encoding e = reference::encoding(k);
      const long length = 1100;
      std::vector<double> table(length * k.d), row(k.d);
      posenc::TableWriter writer(e, 0);
      ASSERT_TRUE(writer.ok());
      writer.write(table.data(), 600);  // two writes: the columns are kept between them
      writer.write(table.data() + 600 * k.d, length - 600);
      for (long r = 0; r < length; ++r) {
        posenc::row(e, k.start + static_cast<double>(r), row.data());
        ASSERT_EQ(0, std::memcmp(row.data(), table.data() + r * k.d, k.d * sizeof(double)))
            << "row " << r << (ratioPower ? " ratio-power" : "");
      }
    }
}

TEST(Table, Float32RatioPowerRowsAreTheFloat64ValuesRounded) {
  // 'ratio-power' float32 rows compute (pos/base)^e as exp(e log(pos/base)): each value must still be
  // the float64 reference rounded to float32, give or take the angle's few ulps (at most 2e-10 where
  // that form is used, angles below 2^16; beyond, and at position 0, the pow). Positions up to 2^24
  // with base 10000 reach angles of 2.8e6 (the pow again) at the column exponent's e = 2(d-1)/d.
  for (int d : {37, 64})
    for (reference::Knobs k : reference::conventions(d)) {
      k.ratioPower = true;
      k.scale = 0.75;
      for (double start : {0.0, 5e5, 1.6777e7}) {
        k.start = start;
        const Encoding e = reference::encoding(k);
        const long length = 200;
        std::vector<float> table(length * d);
        ASSERT_TRUE(posenc::table(e, length, table.data()));
        for (long r = 0; r < length; ++r)
          for (int j = 0; j < d; ++j) {
            const double want = reference::value(k, start + static_cast<double>(r), j);
            const float rounded = static_cast<float>(want);
            const double halfUlp = 0.5 * (std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded));
            ASSERT_LE(std::fabs(table[r * d + j] - want), halfUlp + 2e-10)
                << "d " << d << ", position " << start + r << ", column " << j;
          }
      }
    }
}

TEST(Table, Float32RowsWithoutRecurrenceAreRowBitForBit) {
  // Where pairs do not share a frequency (the column exponent) float32 rows
  // are evaluated directly too: each value is row()'s double, rounded once.
  // ('ratio-power' float32 rows take their angles another way: below.)
  for (bool ratioPower : {false})
    for (reference::Knobs k : reference::conventions(37)) {
      k.ratioPower = ratioPower;
      const Encoding e = reference::encoding(k);
      if (posenc::pairsShareFrequency(e)) continue;
      k.start = 3;
      k.paddingRow = 5;
      const Encoding shifted = reference::encoding(k);
      const long length = 300;
      std::vector<float> table(length * k.d), row(k.d);
      ASSERT_TRUE(posenc::table(shifted, length, table.data()));
      for (long r = 0; r < length; ++r) {
        posenc::row(shifted, k.start + static_cast<double>(r), row.data());
        ASSERT_EQ(0, std::memcmp(row.data(), table.data() + r * k.d, k.d * sizeof(float))) << "row " << r;
      }
    }
}

TEST(Table, ChunkedWritesEqualOneWrite) {
  reference::Knobs k;
  k.d = 34;
  k.concat = true;
  const Encoding e = reference::encoding(k);
  const long length = 2024;
  std::vector<float> whole(length * k.d), chunked(length * k.d);
  posenc::table(e, length, whole.data());
  posenc::TableWriter writer(e, 0);
  long done = 0;
  for (long chunk : {1L, 7L, 255L, 256L, 1024L, 300L, 181L}) {
    writer.write(chunked.data() + done * k.d, chunk);
    done += chunk;
  }
  ASSERT_EQ(done, length);
  EXPECT_EQ(whole, chunked);
}

TEST(Table, ChunksAtAnyPageOffsetEqualOneWrite) {
  // The writer moves its state away from each chunk's rows modulo 4 KB (d a
  // multiple of 128); chunks at shifting page offsets make it move.
  for (int d : {128, 1024}) {
    reference::Knobs k;
    k.d = d;
    const Encoding e = reference::encoding(k);
    const long length = 48, chunk = 16;
    std::vector<float> whole(length * d);
    posenc::table(e, length, whole.data());
    std::vector<float> memory(chunk * d + 2048);
    posenc::TableWriter writer(e, 0);
    const size_t offsets[] = {0, 512, 1024 + 8};  // floats
    for (long done = 0, c = 0; done < length; done += chunk, ++c) {
      float* rows = memory.data() + offsets[c];
      writer.write(rows, chunk);
      ASSERT_EQ(0, std::memcmp(rows, whole.data() + done * d, chunk * d * sizeof(float)))
          << "d=" << d << " rows from " << done;
    }
  }
}

TEST(Table, PaddingRowStartAndScale) {
  reference::Knobs k;
  k.d = 9;
  k.concat = true;
  k.exponent = posenc::Exponent::kHalfMinusOne;
  k.paddingRow = 1;
  k.start = 5;
  k.scale = std::sqrt(9.0);
  k.zeroOddColumn = true;  // fairseq pads an odd width with a zero column
  std::vector<float> out(20 * 9);
  posenc::table(reference::encoding(k), 20, out.data());
  for (int j = 0; j < 9; ++j) EXPECT_EQ(out[1 * 9 + j], 0.0f);
  for (int r = 0; r < 20; ++r) EXPECT_EQ(out[r * 9 + 8], 0.0f);  // odd dModel
  EXPECT_LE(worstError(out, k, 20), 3 * 1.2e-7);
  EXPECT_NEAR(out[0 * 9 + 0], 3 * std::sin(5.0), 3e-7);
}

TEST(Table, PaddingRowWithAFractionalStart) {
  // 0.1 + 4 is 4.1 but 4.1 - 0.1 is not 4: the padding row is decided by its
  // index in tables and by the position start + paddingRow in row() and
  // offsetDots(), never by position - start.
  const std::pair<double, long> cases[] = {{0.1, 4}, {0.3, 2}, {0.2, 8}, {0.7, 8}, {1.1, 3}, {-2.9, 5}};
  for (auto [start, padding] : cases) {
    for (reference::Knobs k : reference::conventions(6)) {
      k.start = start;
      k.paddingRow = padding;
      const Encoding e = reference::encoding(k);
      const long length = 12;
      std::vector<float> out(length * k.d);
      std::vector<double> out64(length * k.d);
      ASSERT_TRUE(posenc::table(e, length, out.data()));
      ASSERT_TRUE(posenc::table(e, length, out64.data()));
      for (long r = 0; r < length; ++r)
        for (int j = 0; j < k.d; ++j) {
          const double expected = r == padding ? 0.0 : reference::value(k, start + r, j);
          ASSERT_NEAR(out[r * k.d + j], expected, 1.2e-7) << "start " << start << " row " << r;
          ASSERT_NEAR(out64[r * k.d + j], expected, 1e-12) << "start " << start << " row " << r;
        }
      std::vector<double> single(k.d, 1.0);
      posenc::row(e, start + static_cast<double>(padding), single.data());
      for (double v : single) EXPECT_EQ(v, 0.0) << "row() at start + paddingRow, start " << start;
      std::vector<double> dots(length);
      ASSERT_TRUE(posenc::offsetDots(e, start, 0, length - 1, dots.data()));
      EXPECT_EQ(dots[padding], 0.0) << "offsetDots from start, k = paddingRow, start " << start;
      EXPECT_NE(dots[padding - 1], 0.0);
    }
  }
}

TEST(Table, PaddingRowBeyondTheResolutionOfTheStart) {
  // At start 2^53 positions start + 0 and start + 1 round to the same double:
  // only the padding row's index says which row is zero.
  reference::Knobs k;
  k.d = 4;
  k.start = 9007199254740992.0;
  k.paddingRow = 1;
  std::vector<float> out(3 * 4);
  ASSERT_TRUE(posenc::table(reference::encoding(k), 3, out.data()));
  for (int j = 0; j < 4; ++j) EXPECT_EQ(out[4 + j], 0.0f);
  EXPECT_NE(out[1], 0.0f);  // row 0: cos(2^53 w_0) is not 0
}

TEST(Table, InvalidEncodingWritesNothing) {
  Encoding e;
  e.base = 0.5;
  posenc::TableWriter writer(e, 0);
  EXPECT_FALSE(writer.ok());
  std::vector<float> out(e.dModel, 3.0f);
  writer.write(out.data(), 1);
  EXPECT_EQ(out[0], 3.0f);
}

}  // namespace

namespace {

// The rows a new writer of `k` writes from row `firstRow` on.
template <typename T>
std::vector<T> freshRows(const reference::Knobs& k, long firstRow, long length) {
  std::vector<T> rows(length * k.d);
  posenc::TableWriter writer(reference::encoding(k), firstRow);
  EXPECT_TRUE(writer.ok());
  writer.write(rows.data(), length);
  return rows;
}

template <typename T>
void expectRestartsWriteWhatANewWriterWrites() {
  for (int d : {1, 9, 64}) {
    for (reference::Knobs k : reference::conventions(d)) {
      k.start = 2.5;
      posenc::TableWriter writer(reference::encoding(k), 0);
      ASSERT_TRUE(writer.ok());
      // The second restart at row 0 copies the seed the first one remembered;
      // 2100 rows cross reseeds; row 1500 is a restart elsewhere; a write
      // without a restart goes on from where the last stopped.
      for (auto [firstRow, length, restart] : {std::tuple{0L, 1L, false},
                                               {0L, 2100L, true},
                                               {0L, 3L, true},
                                               {0L, 1100L, true},
                                               {1500L, 700L, true},
                                               {2200L, 5L, false},
                                               {0L, 1L, true}}) {
        SCOPED_TRACE(testing::Message() << "d " << d << ", rows " << firstRow << ".." << firstRow + length);
        if (restart) writer.restart(firstRow);
        std::vector<T> rows(length * k.d);
        writer.write(rows.data(), length);
        const std::vector<T> want = freshRows<T>(k, firstRow, length);
        ASSERT_EQ(0, std::memcmp(rows.data(), want.data(), rows.size() * sizeof(T)));
        for (long r : {0L, length - 1})
          for (int j = 0; j < k.d; ++j)
            ASSERT_NEAR(rows[r * k.d + j], reference::value(k, k.start + firstRow + r, j),
                        k.ratioPower ? 1e-6 : 1.2e-7);
      }
    }
  }
}

}  // namespace

TEST(TableWriter, RestartsWriteWhatANewWriterWritesFloat32) {
  expectRestartsWriteWhatANewWriterWrites<float>();
}
TEST(TableWriter, RestartsWriteWhatANewWriterWritesFloat64) {
  expectRestartsWriteWhatANewWriterWrites<double>();
}

TEST(TableWriter, RowsAtAnyPositionAreWhatRowGives) {
  for (int d : {1, 9, 64}) {
    for (reference::Knobs k : reference::conventions(d)) {
      k.start = 0.5;
      k.paddingRow = 2;  // position 2.5
      const Encoding e = reference::encoding(k);
      posenc::TableWriter writer(e, 0);
      ASSERT_TRUE(writer.ok());
      std::vector<float> got32(d), want32(d);
      std::vector<double> got64(d), want64(d);
      for (double position : {0.0, 2.5, 3.25, 1000.0, 5000.5}) {
        if (position < 0 && k.ratioPower) continue;
        writer.row(position, got32.data());
        writer.row(position, got64.data());
        posenc::row(e, position, want32.data());
        posenc::row(e, position, want64.data());
        ASSERT_EQ(0, std::memcmp(got32.data(), want32.data(), d * sizeof(float)))
            << "d " << d << " at " << position;
        ASSERT_EQ(0, std::memcmp(got64.data(), want64.data(), d * sizeof(double)))
            << "d " << d << " at " << position;
        for (int j = 0; j < d; ++j) ASSERT_NEAR(got64[j], reference::value(k, position, j), 1e-12);
      }
    }
  }
}
