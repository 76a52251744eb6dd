// The same sinusoids beyond a table of token positions: diffusion timestep
// embeddings, 2-D sin-cos grids of image patches, and table rows at any
// positions (relative encodings, streaming chunks). Plain C++17, defined in
// src/timestep.cpp, src/grid.cpp, src/grid3d.cpp, src/resize.cpp and src/positions.cpp. Float32 results are
// the float64 values rounded, as for the table.
#pragma once

#include <cstdint>

#include "posenc/posenc.h"

namespace posenc {

// ---- Timestep embeddings ----------------------------------------------------
//
// Row t of [sin | cos] (or [cos | sin]) over h = floor(dim / 2) frequencies
//   w_i = scale * maxPeriod^(-i / (h - downscaleFreqShift)),  i = 0..h-1,
// angle t * w_i, and a zero last column when dim is odd. The knobs are those
// of diffusers' get_timestep_embedding; guided-diffusion, DiT and
// latent-diffusion are shift 0 with cos first (the JS presets).
struct Timestep {
  int32_t dim = 320;
  double maxPeriod = 10000.0;
  bool flipSinToCos = false;        // [cos | sin] instead of [sin | cos]
  double downscaleFreqShift = 1.0;  // the exponent's denominator is h - shift
  double scale = 1.0;               // multiplies every angle (not the values)
};

// nullptr when `t` is usable, else a static message naming the bad field.
const char* validate(const Timestep& t);

// The h = dim / 2 frequencies w_i (scale included). Exponent 0 for i = 0 even
// where h - shift is 0 (h = 1, shift 1: diffusers' 0/0 is NaN there).
void timestepFrequencies(const Timestep& t, double* out);

// count rows of dim values, row k at timesteps[k] (any real number). False
// when scratch memory is short or `t` is invalid.
bool timestepEmbedding(const Timestep& t, const double* timesteps, int64_t count, float* out);
bool timestepEmbedding(const Timestep& t, const double* timesteps, int64_t count, double* out);

// ---- 2-D sin-cos grids ------------------------------------------------------
//
// Which axis the first dim/2 columns encode. MAE's and DiT's
// get_2d_sincos_pos_embed (and diffusers') call that half emb_h but fill it
// from meshgrid(grid_w, grid_h)[0], the column index: 'w-h'.
#define POSENC_AXIS_ORDERS(X) X(kWidthFirst, "w-h", 0) X(kHeightFirst, "h-w", 1)
enum class AxisOrder : int32_t { POSENC_AXIS_ORDERS(POSENC_ENUMERATOR) };

// extraTokens zero rows (class / register tokens), then height * width rows,
// row extraTokens + y * width + x for the patch in grid row y, column x. Each
// half is the 1-D [sin | cos] row of dim/2 columns, frequencies
// base^(-i / (dim/4)), at the patch's coordinate along its axis:
//   baseSize 0:  index / interpolationScale
//   baseSize b:  index / (size / b) / interpolationScale  (diffusers, PixArt:
//                a grid of another size spans the same coordinates as the
//                b x b grid it was trained on)
// With coordinateDtype kFloat32 the coordinates are formed in float32 as
// diffusers' NumPy code forms them (each division rounded).
struct Grid2d {
  int32_t dim = 768;  // a multiple of 4
  int32_t height = 14, width = 14;
  AxisOrder axisOrder = AxisOrder::kWidthFirst;
  int32_t extraTokens = 0;
  double baseSize = 0.0;
  double interpolationScale = 1.0;
  double base = 10000.0;
  Dtype coordinateDtype = Dtype::kFloat64;
};

const char* validate(const Grid2d& g);

// The coordinate of grid index `index` along an axis of `size` patches.
double gridCoordinate(const Grid2d& g, int32_t index, int32_t size);

// Rows of the grid (gridRows(g) x dim values). False when memory is short or `g` is invalid.
inline int64_t gridRows(const Grid2d& g) {
  return static_cast<int64_t>(g.extraTokens) + static_cast<int64_t>(g.height) * g.width;
}
bool grid2d(const Grid2d& g, float* out);
bool grid2d(const Grid2d& g, double* out);

// ---- 3-D sin-cos grids (video) ----------------------------------------------
//
// diffusers' get_3d_sincos_pos_embed (CogVideoX): extraTokens zero rows (the
// text tokens of a joint sequence), then frames * height * width rows, row
// extraTokens + (t * height + y) * width + x. Each row is
//   [ temporal: dim/4 | spatial: 3*dim/4 ]
// the temporal part the 1-D [sin | cos] row of dim/4 columns (frequencies
// base^(-i / (dim/8))) at t / temporalInterpolationScale, the spatial part the
// 2-D grid row of 3*dim/4 columns (two halves of 3*dim/8, frequencies
// base^(-i / (3*dim/16)), axisOrder as for Grid2d) at x and y divided by
// spatialInterpolationScale. dim a multiple of 16 so that every part has
// whole sin and cos pairs. coordinateDtype kFloat32: each coordinate is
// rounded to float32 as torch.arange(float32) / scale rounds it.
struct Grid3d {
  int32_t dim = 1920;  // a multiple of 16
  int32_t frames = 13, height = 60, width = 90;
  AxisOrder axisOrder = AxisOrder::kWidthFirst;
  int32_t extraTokens = 0;
  double spatialInterpolationScale = 1.0;
  double temporalInterpolationScale = 1.0;
  double base = 10000.0;
  Dtype coordinateDtype = Dtype::kFloat64;
};

const char* validate(const Grid3d& g);

// The coordinate of index `index` divided by `scale` (in float32 steps when asked).
double grid3dCoordinate(const Grid3d& g, int32_t index, double scale);

inline int64_t gridRows(const Grid3d& g) {
  return static_cast<int64_t>(g.extraTokens) + static_cast<int64_t>(g.frames) * g.height * g.width;
}
bool grid3d(const Grid3d& g, float* out);
bool grid3d(const Grid3d& g, double* out);

// ---- Resizing a grid (checkpoints used at another grid size) ----------------
//
// MAE's util/pos_embed.py interpolate_pos_embed (DiT and timm's
// resample_abs_pos_embed with antialias=False do the same): the extraTokens
// leading rows are kept as they are, the fromHeight x fromWidth patch rows are
// resized to toHeight x toWidth by torch.nn.functional.interpolate(mode='bicubic',
// align_corners=False), each of the dim columns an image of its own. That is,
// for output index o of an axis of n values resized to m:
//   s = (o + 0.5) * n / m - 0.5,  k = floor(s),  u = s - k
//   weights of k-1, k, k+1, k+2: W(u + 1), W(u), W(1 - u), W(2 - u)
//   W(x) = (A+2)|x|^3 - (A+3)|x|^2 + 1        for |x| <= 1
//          A|x|^3 - 5A|x|^2 + 8A|x| - 4A      for 1 < |x| < 2,   A = -0.75
// indices clamped to [0, n-1] (the border value repeated), the two axes in turn.
struct GridResize {
  int32_t dim = 768;
  int32_t fromHeight = 14, fromWidth = 14;
  int32_t toHeight = 16, toWidth = 16;
  int32_t extraTokens = 0;
};

const char* validate(const GridResize& r);

// The four source indices (clamped) and weights of output index `o` along an
// axis of `from` values resized to `to`.
void bicubicTaps(int32_t from, int32_t to, int32_t o, int32_t index[4], double weight[4]);

inline int64_t gridRows(const GridResize& r) {
  return static_cast<int64_t>(r.extraTokens) + static_cast<int64_t>(r.toHeight) * r.toWidth;
}
// `in`: extraTokens + fromHeight * fromWidth rows of dim values; `out`:
// gridRows(r) rows. Computed in float64; float32 results are those rounded.
bool resizeGrid(const GridResize& r, const double* in, float* out);
bool resizeGrid(const GridResize& r, const double* in, double* out);

// ---- Tables at any positions ------------------------------------------------
//
// Row k of the encoding at positions[k] (row() of each; e.start is not
// added): descending and negative positions for relative encodings (ESPnet's
// RelPositionalEncoding: L-1 down to -(L-1)), any start. Runs of consecutive
// integers, up or down, take the table's recurrence. False when memory is
// short or `e` is invalid.
bool rowsAt(const Encoding& e, const double* positions, int64_t count, float* out);
bool rowsAt(const Encoding& e, const double* positions, int64_t count, double* out);

}  // namespace posenc
