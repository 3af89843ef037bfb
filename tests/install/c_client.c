/* A C program (compiled as C, linked with nothing of gelucheck) that loads libgelucheck_gelu.so
 * with dlopen and calls its C API, the way another language's foreign-function interface does.
 *
 *   c_client LIBRARY < input      input: one "x dy" pair per line (decimal or C99 hex floats)
 *
 * For each form (0 tanh, 1 erf) and path (0 accurate, 1 naive) it prints, one per input,
 *   map64 FORM PATH I RESULT / bwd64 FORM PATH I RESULT / map32 ... / bwd32 ...
 * with RESULT a C99 hex float; the f32 calls get (float)x and (float)dy. The caller
 * (shared_library_test.cpp) checks the numbers. The error returns of gelu_c.h are checked here;
 * any failure prints "FAIL ..." on stderr and exits 1. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*map64_fn)(int, int, const double*, double*, size_t);
typedef int (*map32_fn)(int, int, const float*, float*, size_t);
typedef int (*bwd64_fn)(int, int, const double*, const double*, double*, size_t);
typedef int (*bwd32_fn)(int, int, const float*, const float*, float*, size_t);

enum { kMax = 256 };
static int failures = 0;

static void check(int cond, const char* what) {
  if (!cond) {
    fprintf(stderr, "FAIL %s\n", what);
    ++failures;
  }
}

/* dlsym returns void*; converting it to a function pointer goes through memcpy (ISO C has no
 * direct conversion). */
static void* symbol(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "FAIL dlsym(%s): %s\n", name, dlerror());
    exit(1);
  }
  return p;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_client LIBRARY < input\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "FAIL dlopen: %s\n", dlerror());
    return 1;
  }
  map64_fn map64;
  map32_fn map32;
  bwd64_fn bwd64;
  bwd32_fn bwd32;
  void* p;
  p = symbol(lib, "gelucheck_map_f64"); memcpy(&map64, &p, sizeof p);
  p = symbol(lib, "gelucheck_map_f32"); memcpy(&map32, &p, sizeof p);
  p = symbol(lib, "gelucheck_backward_f64"); memcpy(&bwd64, &p, sizeof p);
  p = symbol(lib, "gelucheck_backward_f32"); memcpy(&bwd32, &p, sizeof p);
  /* Only the C API is exported: a C++ symbol of the library must not be found. */
  check(dlsym(lib, "_ZN9gelucheck6scalarENS_4FormEdNS_4PathE") == NULL, "C++ symbol exported");

  double x[kMax], dy[kMax], out[kMax];
  float xf[kMax], dyf[kMax], outf[kMax];
  size_t n = 0;
  char line[512];
  while (n < kMax && fgets(line, sizeof line, stdin) != NULL) {
    char* end;
    x[n] = strtod(line, &end);
    dy[n] = strtod(end, NULL);
    xf[n] = (float)x[n];
    dyf[n] = (float)dy[n];
    ++n;
  }

  for (int form = 0; form <= 1; ++form)
    for (int path = 0; path <= 1; ++path) {
      check(map64(form, path, x, out, n) == 0, "map_f64");
      for (size_t i = 0; i < n; ++i) printf("map64 %d %d %zu %a\n", form, path, i, out[i]);
      check(bwd64(form, path, x, dy, out, n) == 0, "backward_f64");
      for (size_t i = 0; i < n; ++i) printf("bwd64 %d %d %zu %a\n", form, path, i, out[i]);
      check(map32(form, path, xf, outf, n) == 0, "map_f32");
      for (size_t i = 0; i < n; ++i) printf("map32 %d %d %zu %a\n", form, path, i, (double)outf[i]);
      check(bwd32(form, path, xf, dyf, outf, n) == 0, "backward_f32");
      for (size_t i = 0; i < n; ++i) printf("bwd32 %d %d %zu %a\n", form, path, i, (double)outf[i]);
    }

  /* In place (exact aliasing) is allowed and gives the same as out of place. */
  double inplace[kMax];
  memcpy(inplace, x, n * sizeof *x);
  check(map64(0, 0, x, out, n) == 0 && map64(0, 0, inplace, inplace, n) == 0, "in place");
  check(memcmp(inplace, out, n * sizeof *out) == 0, "in place differs from out of place");

  /* Error returns (gelu_c.cpp): nothing is written on error. */
  const double sentinel = 12345.0;
  double one = 1.0, o = sentinel;
  check(map64(2, 0, &one, &o, 1) == 1 && o == sentinel, "bad form -> 1, nothing written");
  check(map64(0, 7, &one, &o, 1) == 1 && o == sentinel, "bad path -> 1, nothing written");
  check(map64(0, 0, NULL, &o, 1) == 2 && o == sentinel, "null x -> 2");
  check(bwd64(0, 0, &one, NULL, &o, 1) == 2 && o == sentinel, "null grad_output -> 2");
  check(map64(0, 0, NULL, NULL, 0) == 0, "n = 0 succeeds with null pointers");
  check(n >= 3 && map64(0, 0, x, x + 1, 2) == 3, "partial overlap -> 3");

  if (fflush(stdout) != 0) return 1;
  dlclose(lib);
  return failures == 0 ? 0 : 1;
}
