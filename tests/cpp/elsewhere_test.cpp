// Timestep embeddings, 2-D sin-cos grids and rows at any positions
// (posenc/elsewhere.h) against float64 references written here from the
// frameworks' formulas: diffusers' get_timestep_embedding, guided-diffusion's
// timestep_embedding, MAE's get_2d_sincos_pos_embed, ESPnet's
// RelPositionalEncoding positions.
#include "posenc/elsewhere.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "boundary.h"

using namespace posenc;

namespace {

// diffusers: w_i = scale * exp(-ln(max_period) * i / (h - shift)), [sin | cos]
// (flip: [cos | sin]), a zero column for odd dim.
std::vector<double> timestepReference(const Timestep& t, const std::vector<double>& timesteps) {
  const int h = t.dim / 2;
  std::vector<double> out(timesteps.size() * t.dim, 0.0);
  for (size_t k = 0; k < timesteps.size(); ++k)
    for (int i = 0; i < h; ++i) {
      const double exponent = i == 0 ? 0.0 : -std::log(t.maxPeriod) * i / (h - t.downscaleFreqShift);
      const double angle = t.scale * (timesteps[k] * std::exp(exponent));
      out[k * t.dim + (t.flipSinToCos ? h : 0) + i] = std::sin(angle);
      out[k * t.dim + (t.flipSinToCos ? 0 : h) + i] = std::cos(angle);
    }
  return out;
}

// MAE: omega_i = 1 / 10000^(i / (D/4)); each half [sin(c omega) | cos(c omega)];
// first half the column (w) coordinate, second the row (h) coordinate.
double gridReference(const Grid2d& g, int64_t row, int column, double xCoordinate, double yCoordinate) {
  if (row < g.extraTokens) return 0.0;
  const int half = g.dim / 2, quarter = g.dim / 4;
  const bool firstHalf = column < half;
  const bool usesX = firstHalf == (g.axisOrder == AxisOrder::kWidthFirst);
  const int c = column % half;
  const double omega = 1.0 / std::pow(g.base, static_cast<double>(c % quarter) / quarter);
  const double angle = (usesX ? xCoordinate : yCoordinate) * omega;
  return c < quarter ? std::sin(angle) : std::cos(angle);
}

// The paper's row: sin / cos of p / 10000^(2i/d), interleaved.
double paperValue(int d, double position, int j) {
  const double angle = position / std::pow(10000.0, 2.0 * (j / 2) / d);
  return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// Every float32 value within `bound` of the float64 reference (its rounding
// is at most half an ulp, 3e-8 below 1, plus the recurrence's ~1e-10).
void expectFloat32Near(const std::vector<float>& got, const std::vector<double>& want,
                       double bound = 6.1e-8) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], bound) << "at " << i;
}

}  // namespace

TEST(Timestep, Float64MatchesDiffusersFormulaForEachKnob) {
  const std::vector<double> timesteps = {0, 1, 2.5, 17, 999, 500.25, -3};
  struct Case {
    int dim;
    double maxPeriod;
    bool flip;
    double shift, scale;
  };
  for (const Case c :
       {Case{320, 10000, false, 1, 1}, Case{256, 10000, true, 0, 1}, Case{7, 10000, true, 0, 1},
        Case{9, 10000, false, 1, 1}, Case{64, 1000, false, 0.5, 1000}, Case{64, 10000, true, 0, 0.25},
        Case{16, 0.5, false, 1, 1}, Case{16, 10000, false, 1, -2}, Case{16, 10000, false, 12, 1}}) {
    Timestep t;
    t.dim = c.dim;
    t.maxPeriod = c.maxPeriod;
    t.flipSinToCos = c.flip;
    t.downscaleFreqShift = c.shift;
    t.scale = c.scale;
    ASSERT_EQ(validate(t), nullptr);
    const std::vector<double> want = timestepReference(t, timesteps);
    std::vector<double> got(want.size(), std::nan(""));
    ASSERT_TRUE(timestepEmbedding(t, timesteps.data(), static_cast<int64_t>(timesteps.size()), got.data()));
    for (size_t i = 0; i < want.size(); ++i) {
      // Angles up to 1e6: float64 rounding of angle ~ |angle| * 2^-52.
      const double angleBound = 1e-15 * (1 + std::abs(c.scale) * 1e3);
      ASSERT_NEAR(got[i], want[i], 4e-13 + angleBound * 1e3) << "dim " << c.dim << " at " << i;
    }
    std::vector<float> got32(want.size(), std::nanf(""));
    ASSERT_TRUE(timestepEmbedding(t, timesteps.data(), static_cast<int64_t>(timesteps.size()), got32.data()));
    expectFloat32Near(got32, want, c.scale > 100 ? 1e-7 : 6.1e-8);
    if (c.dim % 2 == 1) {
      for (size_t k = 0; k < timesteps.size(); ++k) EXPECT_EQ(got32[(k + 1) * c.dim - 1], 0.0f);
    }
  }
}

TEST(Timestep, GuidedDiffusionIsCosFirstOverHalfTheDim) {
  // guided-diffusion: freqs = exp(-ln(10000) * i / half), [cos(t f) | sin(t f)].
  Timestep t;
  t.dim = 6;
  t.flipSinToCos = true;
  t.downscaleFreqShift = 0;
  const double timestep = 10;
  double got[6];
  ASSERT_TRUE(timestepEmbedding(t, &timestep, 1, got));
  for (int i = 0; i < 3; ++i) {
    const double f = std::exp(-std::log(10000.0) * i / 3);
    EXPECT_NEAR(got[i], std::cos(timestep * f), 1e-14);
    EXPECT_NEAR(got[3 + i], std::sin(timestep * f), 1e-14);
  }
}

TEST(Timestep, ConsecutiveTimestepsTakeTheRecurrenceAndMatchRowByRow) {
  // arange(1000) up and down: runs the recurrence; the same timesteps one at a time do not.
  Timestep t;
  t.dim = 128;
  std::vector<double> up(1000), down(1000);
  for (int k = 0; k < 1000; ++k) {
    up[k] = k;
    down[k] = 999 - k;
  }
  std::vector<float> rows(1000 * 128), downRows(1000 * 128), one(128);
  ASSERT_TRUE(timestepEmbedding(t, up.data(), 1000, rows.data()));
  ASSERT_TRUE(timestepEmbedding(t, down.data(), 1000, downRows.data()));
  const std::vector<double> want = timestepReference(t, up);
  expectFloat32Near(rows, want);
  for (int k = 0; k < 1000; k += 37) {
    ASSERT_TRUE(timestepEmbedding(t, &up[k], 1, one.data()));
    for (int j = 0; j < 128; ++j) {
      ASSERT_NEAR(rows[k * 128 + j], one[j], 1.2e-7);
      ASSERT_EQ(downRows[(999 - k) * 128 + j], rows[k * 128 + j]);
    }
  }
}

TEST(Timestep, ValidateNamesTheField) {
  Timestep t;
  t.dim = 0;
  EXPECT_NE(std::string(validate(t)).find("dim"), std::string::npos);
  t.dim = 8;
  t.maxPeriod = -1;
  EXPECT_NE(std::string(validate(t)).find("maxPeriod"), std::string::npos);
  t.maxPeriod = 10000;
  t.downscaleFreqShift = 4;  // h - shift = 0
  EXPECT_NE(std::string(validate(t)).find("downscaleFreqShift"), std::string::npos);
  t.downscaleFreqShift = 1;
  t.scale = INFINITY;
  EXPECT_NE(std::string(validate(t)).find("scale"), std::string::npos);
  t.scale = 1;
  EXPECT_EQ(validate(t), nullptr);
  // dim 2, shift 1: h - shift = 0 but the one exponent is 0 (diffusers gives NaN there).
  t.dim = 2;
  EXPECT_EQ(validate(t), nullptr);
  const double timestep = 3;
  double row[2];
  ASSERT_TRUE(timestepEmbedding(t, &timestep, 1, row));
  EXPECT_NEAR(row[0], std::sin(3.0), 1e-15);
  EXPECT_NEAR(row[1], std::cos(3.0), 1e-15);
}

TEST(Grid2d, NonSquareGridWithClassTokenMatchesMae) {
  for (const AxisOrder order : {AxisOrder::kWidthFirst, AxisOrder::kHeightFirst}) {
    Grid2d g;
    g.dim = 16;
    g.height = 3;
    g.width = 5;
    g.extraTokens = 1;
    g.axisOrder = order;
    ASSERT_EQ(validate(g), nullptr);
    ASSERT_EQ(gridRows(g), 16);
    std::vector<double> got(static_cast<size_t>(gridRows(g)) * g.dim, std::nan(""));
    std::vector<float> got32(got.size(), std::nanf(""));
    ASSERT_TRUE(grid2d(g, got.data()));
    ASSERT_TRUE(grid2d(g, got32.data()));
    std::vector<double> want(got.size());
    for (int64_t r = 0; r < gridRows(g); ++r) {
      const int64_t patch = r - g.extraTokens;
      const double x = patch >= 0 ? static_cast<double>(patch % g.width) : 0;
      const double y = patch >= 0 ? static_cast<double>(patch / g.width) : 0;
      for (int c = 0; c < g.dim; ++c) want[r * g.dim + c] = gridReference(g, r, c, x, y);
    }
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-15) << i;
    expectFloat32Near(got32, want);
  }
}

TEST(Grid2d, SwappedAxisOrderSwapsTheHalves) {
  Grid2d g;
  g.dim = 8;
  g.height = 2;
  g.width = 4;
  std::vector<float> wh(8 * 8), hw(8 * 8);
  ASSERT_TRUE(grid2d(g, wh.data()));
  g.axisOrder = AxisOrder::kHeightFirst;
  ASSERT_TRUE(grid2d(g, hw.data()));
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(wh[r * 8 + c], hw[r * 8 + 4 + c]);
      EXPECT_EQ(wh[r * 8 + 4 + c], hw[r * 8 + c]);
    }
  // Patch (y 0, x 3): the first half of 'w-h' is the 1-D row at 3, sin(3) first.
  EXPECT_FLOAT_EQ(wh[3 * 8], static_cast<float>(std::sin(3.0)));
  EXPECT_EQ(hw[3 * 8], 0.0f);
}

TEST(Grid2d, BaseSizeScalesCoordinatesAsDiffusersDoes) {
  // grid_h = arange(H) / (H / base_size) / interpolation_scale, in float64 here
  // and in float32 steps as NumPy does on a float32 arange.
  Grid2d g;
  g.dim = 8;
  g.height = 24;
  g.width = 32;
  g.baseSize = 16;
  g.interpolationScale = 2;
  EXPECT_EQ(gridCoordinate(g, 5, 24), 5 / (24 / 16.0) / 2);
  EXPECT_EQ(gridCoordinate(g, 31, 32), 31 / 2.0 / 2);
  g.coordinateDtype = Dtype::kFloat32;
  const float fifth = 5.0f / 1.5f;
  EXPECT_EQ(gridCoordinate(g, 5, 24), static_cast<double>(fifth / 2.0f));
  EXPECT_NE(gridCoordinate(g, 5, 24), 5 / 1.5 / 2);
  std::vector<double> got(24 * 32 * 8);
  ASSERT_TRUE(grid2d(g, got.data()));
  // Patch y 5, x 7: row 5 * 32 + 7.
  const double x = static_cast<double>(7.0f / 2.0f / 2.0f), y = static_cast<double>(fifth / 2.0f);
  for (int c = 0; c < 8; ++c)
    EXPECT_NEAR(got[(5 * 32 + 7) * 8 + c], gridReference(g, 5 * 32 + 7, c, x, y), 1e-15);
}

TEST(Grid2d, ValidateNamesTheField) {
  Grid2d g;
  g.dim = 6;
  EXPECT_NE(std::string(validate(g)).find("dim"), std::string::npos);
  g.dim = 8;
  g.width = 0;
  EXPECT_NE(std::string(validate(g)).find("width"), std::string::npos);
  g.width = 2;
  g.extraTokens = -1;
  EXPECT_NE(std::string(validate(g)).find("extraTokens"), std::string::npos);
  g.extraTokens = 0;
  g.interpolationScale = 0;
  EXPECT_NE(std::string(validate(g)).find("interpolationScale"), std::string::npos);
  g.interpolationScale = 1;
  g.baseSize = -1;
  EXPECT_NE(std::string(validate(g)).find("baseSize"), std::string::npos);
  g.baseSize = 0;
  EXPECT_EQ(validate(g), nullptr);
}

TEST(RowsAt, RelativePositionsFromLDownToMinusL) {
  // ESPnet RelPositionalEncoding: rows at L-1, ..., 0, ..., -(L-1).
  const int d = 64, L = 300;
  std::vector<double> positions;
  for (int p = L - 1; p >= -(L - 1); --p) positions.push_back(p);
  Encoding e;
  e.dModel = d;
  std::vector<float> got(positions.size() * d);
  std::vector<double> got64(positions.size() * d);
  ASSERT_TRUE(rowsAt(e, positions.data(), static_cast<int64_t>(positions.size()), got.data()));
  ASSERT_TRUE(rowsAt(e, positions.data(), static_cast<int64_t>(positions.size()), got64.data()));
  std::vector<double> want(got.size());
  for (size_t k = 0; k < positions.size(); ++k)
    for (int j = 0; j < d; ++j) want[k * d + j] = paperValue(d, positions[k], j);
  expectFloat32Near(got, want);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got64[i], want[i], 1e-13);
  // Row L - 1 is position 0: [0, 1, 0, 1, ...] (the recurrence from -(L-1) is off by ~1e-14).
  EXPECT_NEAR(got[(L - 1) * d], 0.0f, 1e-12);
  EXPECT_EQ(got[(L - 1) * d + 1], 1.0f);
}

TEST(RowsAt, AnyPositionsMatchRowAndPaddingIsByPosition) {
  Encoding e;
  e.dModel = 10;
  e.layout = Layout::kConcat;
  e.paddingRow = 3;  // position start + 3 = 3
  const std::vector<double> positions = {64, 65, 66, 67, 68, 3, 0.5, -7.25, 1e6, 3, 2, 1, 0, -1};
  std::vector<double> got(positions.size() * 10), one(10);
  ASSERT_TRUE(rowsAt(e, positions.data(), static_cast<int64_t>(positions.size()), got.data()));
  for (size_t k = 0; k < positions.size(); ++k) {
    row(e, positions[k], one.data());
    for (int j = 0; j < 10; ++j) ASSERT_EQ(got[k * 10 + j], one[j]) << "position " << positions[k];
  }
  EXPECT_EQ(got[5 * 10 + 1], 0.0);  // position 3: the padding row
  EXPECT_NE(got[0], 0.0);
}

TEST(Boundary, EachTimestepAndGridFieldReadsIntoItsMember) {
  using namespace posenc::bindings;
  std::vector<double> staged(timestep_field::kCount, 0.0);
  staged[timestep_field::dim] = 33;
  staged[timestep_field::maxPeriod] = 123.5;
  staged[timestep_field::flipSinToCos] = 1;
  staged[timestep_field::downscaleFreqShift] = 0.5;
  staged[timestep_field::scale] = 1000;
  const Timestep t = timestepFrom(staged.data());
  EXPECT_EQ(t.dim, 33);
  EXPECT_EQ(t.maxPeriod, 123.5);
  EXPECT_TRUE(t.flipSinToCos);
  EXPECT_EQ(t.downscaleFreqShift, 0.5);
  EXPECT_EQ(t.scale, 1000.0);
  std::vector<double> grid(grid_field::kCount, 0.0);
  grid[grid_field::dim] = 12;
  grid[grid_field::height] = 3;
  grid[grid_field::width] = 7;
  grid[grid_field::axisOrder] = 1;
  grid[grid_field::extraTokens] = 4;
  grid[grid_field::baseSize] = 16;
  grid[grid_field::interpolationScale] = 0.5;
  grid[grid_field::base] = 100;
  grid[grid_field::coordinateDtype] = 1;
  const Grid2d g = gridFrom(grid.data());
  EXPECT_EQ(g.dim, 12);
  EXPECT_EQ(g.height, 3);
  EXPECT_EQ(g.width, 7);
  EXPECT_EQ(g.axisOrder, AxisOrder::kHeightFirst);
  EXPECT_EQ(g.extraTokens, 4);
  EXPECT_EQ(g.baseSize, 16.0);
  EXPECT_EQ(g.interpolationScale, 0.5);
  EXPECT_EQ(g.base, 100.0);
  EXPECT_EQ(g.coordinateDtype, Dtype::kFloat32);
}

namespace {

// diffusers' get_3d_sincos_pos_embed (CogVideoX): [temporal dim/4 | spatial 3*dim/4],
// each part's halves [sin(c w_i) | cos(c w_i)], w_i = base^(-i / (columns/4)) for a
// part of `columns` columns; the spatial part's first half the x coordinate.
double grid3dReference(const Grid3d& g, int64_t row, int column) {
  if (row < g.extraTokens) return 0.0;
  const int64_t patch = row - g.extraTokens;
  const int64_t x = patch % g.width, y = (patch / g.width) % g.height, t = patch / (g.width * g.height);
  const auto coordinate = [&](int64_t index, double scale) {
    if (g.coordinateDtype == Dtype::kFloat32)
      return static_cast<double>(static_cast<float>(index) / static_cast<float>(scale));
    return index / scale;
  };
  const auto pairValue = [&](int columns, int c, double position) {
    const int pairs = columns / 2;
    const double w = std::pow(g.base, -static_cast<double>(c % pairs) / pairs);
    return c < pairs ? std::sin(position * w) : std::cos(position * w);
  };
  const int temporal = g.dim / 4, half = 3 * g.dim / 8;
  if (column < temporal) return pairValue(temporal, column, coordinate(t, g.temporalInterpolationScale));
  const int c = column - temporal;
  const bool firstHalf = c < half;
  const bool usesX = firstHalf == (g.axisOrder == AxisOrder::kWidthFirst);
  return pairValue(half, c % half, coordinate(usesX ? x : y, g.spatialInterpolationScale));
}

// PyTorch's cubic convolution kernel (Keys, A = -0.75) as a function of the distance.
double keys(double distance) {
  const double a = -0.75, x = std::abs(distance);
  if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
  if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
  return 0;
}

// interpolate(mode='bicubic', align_corners=False) of one value: the 4 x 4 taps
// around the source point, each weight the product of the two axes' kernels at
// the tap's distance, indices clamped to the border.
double bicubicReference(const std::vector<double>& image, int height, int width, int toHeight, int toWidth,
                        int y, int x) {
  const double sy = (y + 0.5) * height / toHeight - 0.5, sx = (x + 0.5) * width / toWidth - 0.5;
  const int fy = static_cast<int>(std::floor(sy)), fx = static_cast<int>(std::floor(sx));
  double sum = 0;
  for (int i = fy - 1; i <= fy + 2; ++i)
    for (int j = fx - 1; j <= fx + 2; ++j) {
      const int ci = std::min(std::max(i, 0), height - 1), cj = std::min(std::max(j, 0), width - 1);
      sum += keys(sy - i) * keys(sx - j) * image[static_cast<size_t>(ci) * width + cj];
    }
  return sum;
}

}  // namespace

TEST(Grid3d, MatchesCogVideoXLayoutWithTextTokens) {
  for (const AxisOrder order : {AxisOrder::kWidthFirst, AxisOrder::kHeightFirst})
    for (const Dtype coordinates : {Dtype::kFloat64, Dtype::kFloat32}) {
      Grid3d g;
      g.dim = 32;
      g.frames = 3;
      g.height = 4;
      g.width = 5;
      g.extraTokens = 2;
      g.axisOrder = order;
      g.spatialInterpolationScale = 1.875;
      g.temporalInterpolationScale = 0.7;
      g.coordinateDtype = coordinates;
      ASSERT_EQ(validate(g), nullptr);
      ASSERT_EQ(gridRows(g), 2 + 3 * 4 * 5);
      std::vector<double> got(static_cast<size_t>(gridRows(g)) * g.dim, std::nan(""));
      std::vector<float> got32(got.size(), std::nanf(""));
      ASSERT_TRUE(grid3d(g, got.data()));
      ASSERT_TRUE(grid3d(g, got32.data()));
      std::vector<double> want(got.size());
      for (int64_t r = 0; r < gridRows(g); ++r)
        for (int c = 0; c < g.dim; ++c) want[r * g.dim + c] = grid3dReference(g, r, c);
      for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-15) << i;
      expectFloat32Near(got32, want);
    }
}

TEST(Grid3d, Float32CoordinatesDifferWhereTheDivisionRounds) {
  Grid3d g;
  g.dim = 16;
  g.temporalInterpolationScale = 0.7;
  EXPECT_EQ(grid3dCoordinate(g, 3, 0.7), 3 / 0.7);
  g.coordinateDtype = Dtype::kFloat32;
  EXPECT_EQ(grid3dCoordinate(g, 3, 0.7), static_cast<double>(3.0f / 0.7f));
  EXPECT_NE(grid3dCoordinate(g, 3, 0.7), 3 / 0.7);
}

TEST(Grid3d, ValidateNamesTheField) {
  Grid3d g;
  g.dim = 24;  // a multiple of 4 and 8, not of 16
  EXPECT_NE(std::string(validate(g)).find("dim"), std::string::npos);
  g.dim = 32;
  g.frames = 0;
  EXPECT_NE(std::string(validate(g)).find("frames"), std::string::npos);
  g.frames = 2;
  g.temporalInterpolationScale = 0;
  EXPECT_NE(std::string(validate(g)).find("temporalInterpolationScale"), std::string::npos);
  g.temporalInterpolationScale = 1;
  g.spatialInterpolationScale = NAN;
  EXPECT_NE(std::string(validate(g)).find("spatialInterpolationScale"), std::string::npos);
  g.spatialInterpolationScale = 1;
  EXPECT_EQ(validate(g), nullptr);
}

TEST(ResizeGrid, BicubicMatchesTheTwoDimensionalFormulaAndKeepsExtraRows) {
  // Up and down, square and not, each column an image of its own.
  struct Case {
    int fromHeight, fromWidth, toHeight, toWidth;
  };
  for (const Case c :
       {Case{4, 4, 7, 7}, Case{14, 14, 16, 16}, Case{6, 9, 4, 5}, Case{3, 5, 8, 2}, Case{1, 4, 3, 4}}) {
    GridResize r;
    r.dim = 3;
    r.fromHeight = c.fromHeight;
    r.fromWidth = c.fromWidth;
    r.toHeight = c.toHeight;
    r.toWidth = c.toWidth;
    r.extraTokens = 1;
    ASSERT_EQ(validate(r), nullptr);
    const int patches = c.fromHeight * c.fromWidth;
    std::vector<double> in(static_cast<size_t>(1 + patches) * 3);
    for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.37 * i * i + 1.1);
    std::vector<double> got(static_cast<size_t>(gridRows(r)) * 3, std::nan(""));
    std::vector<float> got32(got.size(), std::nanf(""));
    ASSERT_TRUE(resizeGrid(r, in.data(), got.data()));
    ASSERT_TRUE(resizeGrid(r, in.data(), got32.data()));
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(got[j], in[j]);
      std::vector<double> image(patches);
      for (int p = 0; p < patches; ++p) image[p] = in[(1 + p) * 3 + j];
      for (int y = 0; y < c.toHeight; ++y)
        for (int x = 0; x < c.toWidth; ++x) {
          const double want = bicubicReference(image, c.fromHeight, c.fromWidth, c.toHeight, c.toWidth, y, x);
          const size_t at = (1 + static_cast<size_t>(y) * c.toWidth + x) * 3 + j;
          ASSERT_NEAR(got[at], want, 1e-14) << c.fromHeight << "x" << c.fromWidth << " at " << y << "," << x;
          ASSERT_EQ(got32[at], static_cast<float>(got[at]));
        }
    }
  }
}

TEST(ResizeGrid, IdentityIsExactAndASizeChangeIsNotAFreshGrid) {
  Grid2d g;
  g.dim = 16;
  g.height = g.width = 7;
  std::vector<double> small(static_cast<size_t>(gridRows(g)) * 16);
  ASSERT_TRUE(grid2d(g, small.data()));
  GridResize same;
  same.dim = 16;
  same.fromHeight = same.fromWidth = same.toHeight = same.toWidth = 7;
  std::vector<double> kept(small.size());
  ASSERT_TRUE(resizeGrid(same, small.data(), kept.data()));
  EXPECT_EQ(kept, small);
  // 7 x 7 resized to 9 x 9 against the 9 x 9 grid computed afresh.
  GridResize up = same;
  up.toHeight = up.toWidth = 9;
  std::vector<double> resized(81 * 16);
  ASSERT_TRUE(resizeGrid(up, small.data(), resized.data()));
  g.height = g.width = 9;
  std::vector<double> fresh(81 * 16);
  ASSERT_TRUE(grid2d(g, fresh.data()));
  double largest = 0;
  for (size_t i = 0; i < fresh.size(); ++i) largest = std::max(largest, std::abs(resized[i] - fresh[i]));
  EXPECT_GT(largest, 0.1);  // the coordinates are stretched: a 9 x 9 grid spanning 7 x 7
}

TEST(ResizeGrid, ValidateNamesTheField) {
  GridResize r;
  r.toWidth = 0;
  EXPECT_NE(std::string(validate(r)).find("toWidth"), std::string::npos);
  r.toWidth = 3;
  r.dim = 0;
  EXPECT_NE(std::string(validate(r)).find("dim"), std::string::npos);
}
