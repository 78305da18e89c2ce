// Cubemap face selection: the CUDA Programming Guide's "Cubemap Fetch" table.
#include "semantics/interp/texture_cube.hpp"

#include <cmath>

namespace ptx::interp::texfilter {

// face | condition                    | m    | s  | t
// 0    | |x| > |y|, |x| > |z|, x >= 0 | x    | -z | -y
// 1    |                       x < 0  | -x   |  z | -y
// 2    | |y| > |x|, |y| > |z|, y >= 0 | y    |  x |  z
// 3    |                       y < 0  | -y   |  x | -z
// 4    | |z| > |x|, |z| > |y|, z >= 0 | z    |  x | -y
// 5    |                       z < 0  | -z   | -x | -y
// Ties (the table's inequalities are strict) go to x, then y (the interpreter's choice); the zero vector reads
// face 0 at its centre.
CubeFace cube_face(double x, double y, double z) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double m = 0, s = 0, t = 0;
  unsigned face = 0;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
  }
  if (m == 0) return {face, 0.5, 0.5};
  return {face, (s / m + 1) / 2, (t / m + 1) / 2};
}

}  // namespace ptx::interp::texfilter
