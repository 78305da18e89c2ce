// Cubemap face selection (CUDA Programming Guide, "Cubemap Textures" and its "Cubemap Fetch" table), used by
// `tex.cube` / `tex.acube` (ISA 9.7.10.3).
#pragma once

namespace ptx::interp::texfilter {

// The face (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z: the layer of the cubemap array) that direction (x, y, z) points
// to, and the normalized coordinates (u, v) = ((s/m)+1)/2, ((t/m)+1)/2 within it, m the largest magnitude.
struct CubeFace {
  unsigned face = 0;
  double u = 0, v = 0;
};
CubeFace cube_face(double x, double y, double z);

}  // namespace ptx::interp::texfilter
