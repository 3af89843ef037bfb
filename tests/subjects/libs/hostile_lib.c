/* A lib: subject that ends its calls in every way a library can, each at one chosen input of
 * gelu_tanh_f64, so that the tests see that each ends exactly the call it happens in and is
 * named at that input (subjects/host/main.cpp, process_test.cpp):
 *   101 a real SIGSEGV (a write through a null pointer)   102 raise(SIGSEGV)
 *   103 kill(getpid(), SIGSEGV)                            104 a real SIGFPE (integer x / 0)
 *   105 raise(SIGFPE)                                      106 a real SIGILL (__builtin_trap)
 *   107 abort() (SIGABRT)                                  108 a real SIGTRAP (int3 on x86)
 *   109 raise(SIGTRAP)                                     110 raise(SIGSYS)
 *   111 raise(SIGBUS)                                      112 exit(0)
 *   113 _exit(7)                                           114 a stack overflow (recursion)
 * Otherwise y = x. A handler that returned from a raised signal would let the loop go on to
 * y = x, so a raised signal that does not end the call is seen as a call that succeeded.
 * The other functions:
 *   gelu_erf_f64            crashes (a real SIGSEGV) in any call of more than 100 elements,
 *                           whatever they are: a length-dependent bug, no input its cause
 *   gelu_tanh_backward_f64  dx = dy / 2, right, then stores dx into x (a write into its input)
 *   gelu_erf_backward_f64   dx = dy / 2 (honest, for comparison)
 *   gelu_tanh_f32           loops forever when some x[i] == 2 (a hang at one input)
 *   gelu_erf_f32            y = x, but crashes (a real SIGSEGV) on its second call in a process,
 *                           whatever the inputs: a state-dependent bug, no input its cause
 *   gelu_erf_backward_f32   dx = dy, honest but slow: 20 ms per element (far slower than the
 *                           op the deadlines were first calibrated on) */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gelucheck/subject_abi.h"

static volatile int zero = 0, seven = 7;

/* Deep enough to pass any stack limit; the volatile buffer keeps each frame and the call from
 * being turned into a loop. */
static int recurse(int depth) {
  volatile char frame[4096];
  frame[0] = (char)depth;
  if (depth == -1) return 0; /* never: the recursion is meant to be endless */
  return recurse(depth + 1) + frame[0];
}

static void misbehave(double v) {
  switch ((int)v) {
    case 101: *(volatile double *)(size_t)zero = 1; break;
    case 102: raise(SIGSEGV); break;
    case 103: kill(getpid(), SIGSEGV); break;
    case 104: zero = seven / zero; break; /* idiv by 0 (GCC turns 1 / v into a compare) */
    case 105: raise(SIGFPE); break;
    case 106: __builtin_trap();
    case 107: abort();
#if defined(__x86_64__) || defined(__i386__)
    case 108: __asm__ volatile("int3"); break;
#else
    case 108: raise(SIGTRAP); break;
#endif
    case 109: raise(SIGTRAP); break;
    case 110: raise(SIGSYS); break;
    case 111: raise(SIGBUS); break;
    case 112: exit(0);
    case 113: _exit(7);
    case 114: zero = recurse(0); break;
    default: break;
  }
}

void gelu_tanh_f64(const double *x, double *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (x[i] >= 101 && x[i] <= 114) misbehave(x[i]);
    y[i] = x[i];
  }
}

void gelu_erf_f64(const double *x, double *y, size_t n) {
  if (n > 100) *(volatile double *)(size_t)zero = 1;
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}

void gelu_tanh_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  for (size_t i = 0; i < n; ++i) dx[i] = dy[i] / 2;
  for (size_t i = 0; i < n; ++i) ((double *)x)[i] = dx[i];
}

void gelu_erf_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  (void)x;
  for (size_t i = 0; i < n; ++i) dx[i] = dy[i] / 2;
}

void gelu_tanh_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] == 2.0f)
      for (volatile int spin = 1; spin;) {
      }
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}

void gelu_erf_f32(const float *x, float *y, size_t n) {
  static int calls = 0;
  if (++calls == 2) *(volatile double *)(size_t)zero = 1;
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}

void gelu_erf_backward_f32(const float *x, const float *dy, float *dx, size_t n) {
  (void)x;
  const struct timespec pause = {0, 20000000};
  for (size_t i = 0; i < n; ++i) {
    nanosleep(&pause, NULL);
    dx[i] = dy[i];
  }
}
