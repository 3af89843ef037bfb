// certify/src/functions.hpp — the two GELU forms, their gap, and every derivative of them, on
// Arb balls: the only place the certificates' functions are written down.
#pragma once

#include "arb_util.hpp"

namespace gelucheck::certify {

// T(x) = x/2·(1 + tanh u), u = √(2/π)·(x + a·x³), a = 44715/10^6 exactly;
// E(x) = x·Φ(x), Φ(x) = erfc(−x/√2)/2;  the gap d = T − E.
enum class Base { tanh, erf, gap };

// Taylor coefficients of base b at the ball x: out[k] contains f^(k)(ξ)/k! for EVERY ξ in x,
// k < len (each operation is a ball operation on the series of x + t, so the coefficients are
// enclosures over the whole ball: this is what makes a box's evaluation a statement about every
// point of the box).
void taylor(Base b, const arb_t x, slong len, arb_poly_t out);
// out ⊇ {f^(k)(ξ) : ξ ∈ x}, f = base b.
void derivative(Base b, int k, const arb_t x, arb_t out);

// The constants, as balls: c = √(2/π), a = 0.044715 (exact decimal), 1/√(2π).
void const_c(arb_t out);
void const_a(arb_t out);
void const_inv_sqrt_2pi(arb_t out);

}  // namespace gelucheck::certify
