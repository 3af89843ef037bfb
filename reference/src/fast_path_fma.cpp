// The fast path compiled for x86-64 machines with FMA (fast_path.cpp, GELUCHECK_FAST_FMA): the
// same code and bounds, the exact products fused. round_batch runs it only where the CPU has FMA.
#define GELUCHECK_FAST_FMA 1
#include "fast_path.cpp"  // NOLINT(bugprone-suspicious-include)
