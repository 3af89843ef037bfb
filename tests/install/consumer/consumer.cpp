// Installed headers and static libraries: the library's accurate path against the reference.
#include <cstdio>

#include "gelucheck/gelu.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"

int main() {
  using namespace gelucheck;
  int bad = 0;
  for (double x : {-3.0, -0.5, 1.0, 2.5}) {
    const double r = scalar(Form::erf, x, Path::accurate);
    const Error e = measure(r, ref::enclose(Form::erf, Quantity::value, x), Format::binary64);
    std::printf("x = %a: library %a, reference %a, %.4f ulp\n", x, r,
                ref::correctly_rounded(Form::erf, Quantity::value, x, Format::binary64), e.ulp);
    if (!e.faithful()) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
