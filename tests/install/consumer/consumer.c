/* Installed shared library, linked normally from C: gelu_new(2) must be the correctly rounded
 * 0x1.f46083b4f1aa6p+0 (from the MPFR reference: `printf '2\n' | gelucheck eval`), and
 * gelu(-inf) = -0 (the limit from below, docs/functions.md). */
#include <math.h>
#include <stdio.h>

#include "gelucheck/gelu_c.h"

int main(void) {
  const double x[3] = {0.0, 2.0, -1.0 / 0.0};
  double y[3];
  if (gelucheck_map_f64(0, 0, x, y, 3) != 0) return 1;
  printf("gelu(0) = %a, gelu(2) = %a, gelu(-inf) = %a\n", y[0], y[1], y[2]);
  if (y[0] != 0.0 || y[1] != 0x1.f46083b4f1aa6p+0 || y[2] != 0.0 || !signbit(y[2])) return 1; /* -0 */
  if (gelucheck_map_f64(5, 0, x, y, 3) != 1) return 1; /* bad form */
  return 0;
}
