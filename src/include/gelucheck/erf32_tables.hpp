// gelucheck/erf32_tables.hpp — the tables of the binary32 erf form's direct pass
// (src/gelu_simd.cpp, erf32_direct). GENERATED; do not edit by hand:
//   /usr/bin/python3 src/tools/fit_erf32_direct.py > src/include/gelucheck/erf32_tables.hpp
// (what each table approximates and how: the script's header). Approximation errors measured by
// the script at 1025 points of each interval (absolute, in A = log Q and B = log(D/(v0 - v)),
// hence relative in Q and D), by interval k = 0..15, as log2:
//   value      -42.5 -34.6 -36.9 -40.6 -39.9 -40.7 -41.8 -42.8
//              -43.9 -44.8 -45.6 -46.7 -47.0 -47.7 -47.4 -48.5
//   derivative -39.7 -35.5 -36.0 -37.3 -38.9 -40.5 -42.0 -43.4
//              -44.7 -45.8 -46.6 -47.2 -47.4 -48.0 -48.1 -47.4
//   exp polynomial (relative, |r| <= ln2/32): -38.5
#pragma once

namespace gelucheck::detail::erf32 {

// Interval k = RN(v * kSigma) (v = |x|), k = 0..15: covers v <= 15.5 / kSigma = 13.05.
inline constexpr double kSigma = 0x1.3000000000000p+0;
// The derivative's zero v0 = -x0 (0.7517915246935644574579049): kV0Hi = RN(v0).
inline constexpr double kV0Hi = 0x1.80ead197f00b4p-1;
// value: t = v - kValueC[k], log Q(v) ~ sum_i kValueP[i][k] t^i.
inline constexpr double kValueC[16] = {0x0.0p+0, 0x1.af286bca1af28p-1, 0x1.af286bca1af28p+0, 0x1.435e50d79435ep+1,
    0x1.af286bca1af28p+1, 0x1.0d79435e50d79p+2, 0x1.435e50d79435ep+2, 0x1.79435e50d7943p+2,
    0x1.af286bca1af28p+2, 0x1.e50d79435e50dp+2, 0x1.0d79435e50d79p+3, 0x1.286bca1af286cp+3,
    0x1.435e50d79435ep+3, 0x1.5e50d79435e51p+3, 0x1.79435e50d7943p+3, 0x1.9435e50d79436p+3};
inline constexpr double kValueP[8][16] = {
    {-0x1.62e42fefa34a7p-1, -0x1.9c30886bbca0bp+0, -0x1.89ee39ad83c5dp+1, -0x1.49fff1cfa1b5ap+2,
     -0x1.f85c0240648f3p+2, -0x1.68aadaf859d23p+3, -0x1.eadba57a22d33p+3, -0x1.4180ab787e4d5p+4,
     -0x1.98a3c770ea373p+4, -0x1.fae6604434ef9p+4, -0x1.3429b9516b6c4p+5, -0x1.7079937a7774bp+5,
     -0x1.b265d91cbcaf1p+5, -0x1.f9f0f39a08f6ap+5, -0x1.238e65c69bad3p+6, -0x1.4cf574f04df60p+6},
    {-0x1.9884533da7ae1p-1, -0x1.6672b573fada4p+0, -0x1.0c6072110673fp+1, -0x1.6c61c7121228ep+1,
     -0x1.d052511a78a36p+1, -0x1.1b4edf7673e72p+2, -0x1.4f320bb8d504ep+2, -0x1.8391f53198b12p+2,
     -0x1.b84774a99dbd0p+2, -0x1.ed39ce70a9284p+2, -0x1.112c6217aa3b8p+3, -0x1.2bcca5d3fbb64p+3,
     -0x1.4679d4b96ae8dp+3, -0x1.6131272d1eae2p+3, -0x1.7bf0919ac7814p+3, -0x1.96b68adf77578p+3},
    {-0x1.45f306b5ba36ep-2, -0x1.901655e58f37ap-2, -0x1.bacd98ed7fe84p-2, -0x1.d304b27add06fp-2,
     -0x1.e134cc7389dbbp-2, -0x1.e9ecd6f555699p-2, -0x1.ef8c2e3c0e364p-2, -0x1.f355cf0d78942p-2,
     -0x1.f5fc60770dfa2p-2, -0x1.f7e70fce99f19p-2, -0x1.f953fbecb3743p-2, -0x1.fa6a00377326fp-2,
     -0x1.fb4243fb42475p-2, -0x1.fbed90e19209fp-2, -0x1.fc776a21eb0a6p-2, -0x1.fce7e63a6da74p-2},
    {-0x1.29a95ed6af296p-5, -0x1.631bc05f6e2ddp-6, -0x1.90aec442e74bbp-7, -0x1.cc98269c4cab5p-8,
     -0x1.14b9c45b1c8a1p-8, -0x1.5d3ad26e1c6afp-9, -0x1.cd7735f8689bcp-10, -0x1.3d8556f2aaa86p-10,
     -0x1.c48c394280657p-11, -0x1.4c589aa3cf973p-11, -0x1.f4e91f5b5d748p-12, -0x1.81fac128e80fdp-12,
     -0x1.2f35f61f76c4cp-12, -0x1.e4768a6bde658p-13, -0x1.88c9e78814475p-13, -0x1.42a442efb7dbap-13},
    {0x1.396d134ddb2bdp-8, 0x1.dad8d589e46d2p-9, 0x1.0f50095d4e428p-9, 0x1.23d4eb7bc8f0bp-10,
     0x1.3ea4a5b542dc3p-11, 0x1.6a290bfd4c9c9p-12, 0x1.aef53fcb50ba4p-13, 0x1.0c0ac8b25efd9p-13,
     0x1.5b24cd87be2a9p-14, 0x1.d1f22e716ad38p-15, 0x1.42ab9bb24c443p-15, 0x1.cb5bede3c0fd4p-16,
     0x1.4ef5dc72cf06ep-16, 0x1.f2fd3eb42541bp-17, 0x1.7ab87a67a4de4p-17, 0x1.2447690bb5c5cp-17},
    {0x1.261b6333d9cb3p-15, -0x1.af0b348c4c4f1p-12, -0x1.3a35be379bff4p-12, -0x1.578b25ccb2542p-13,
     -0x1.637e5312f2273p-14, -0x1.75283fab8fa45p-15, -0x1.9688312e5d18cp-16, -0x1.ce6147c09bda1p-17,
     -0x1.125594cd26e1ap-17, -0x1.52923243fdca1p-18, -0x1.b0f069c042a54p-19, -0x1.1db7d1d6dba9dp-19,
     -0x1.83e84dcaaa8a4p-20, -0x1.0e04318018ab8p-20, -0x1.806ad86dcca64p-21, -0x1.172d614edbaa3p-21},
    {-0x1.b1fee4b7a2460p-13, -0x1.4834a589ed0cfp-18, 0x1.03507900ad027p-15, 0x1.61c9558d58c0cp-16,
     0x1.73c310f3f37a2p-17, 0x1.74a62caea58c4p-18, 0x1.7ae956da992fep-19, 0x1.8eedfa72faa21p-20,
     0x1.b564026fbd97dp-21, 0x1.f359cace90598p-22, 0x1.2817495775674p-22, 0x1.6b94fdf51b69ep-23,
     0x1.ccc2ad9e2e6a5p-24, 0x1.2c5ed796e84d9p-24, 0x1.91c442c05d850p-25, 0x1.12f4b9d292d3cp-25},
    {0x1.7fe95634a533fp-15, 0x1.176d8f463ff81p-16, -0x1.2b6f42e93656ap-22, -0x1.14b5713ffa561p-19,
     -0x1.58a7e197ce8d9p-20, -0x1.5c283b218f448p-21, -0x1.53760d3accbf5p-22, -0x1.503e512937c6bp-23,
     -0x1.58549f2cef4cap-24, -0x1.6e6f796298f88p-25, -0x1.954c3f8757fefp-26, -0x1.d102609d5811fp-27,
     -0x1.13f6bb0868a45p-27, -0x1.51df4c0567b7fp-28, -0x1.a9850de783419p-29, -0x1.12ea583991a21p-29},
};
// derivative: t = v - kDerivC[k] (kDerivC[1] = kV0Hi), log(D(v)/(v0 - v)) ~ sum_i kDerivP[i][k] t^i,
// v0 - v ~ kDerivZ[k] - t (kDerivZ[k] = RN(v0 - kDerivC[k])).
inline constexpr double kDerivC[16] = {0x0.0p+0, 0x1.80ead197f00b4p-1, 0x1.af286bca1af28p+0, 0x1.435e50d79435ep+1,
    0x1.af286bca1af28p+1, 0x1.0d79435e50d79p+2, 0x1.435e50d79435ep+2, 0x1.79435e50d7943p+2,
    0x1.af286bca1af28p+2, 0x1.e50d79435e50dp+2, 0x1.0d79435e50d79p+3, 0x1.286bca1af286cp+3,
    0x1.435e50d79435ep+3, 0x1.5e50d79435e51p+3, 0x1.79435e50d7943p+3, 0x1.9435e50d79436p+3};
inline constexpr double kDerivZ[16] = {0x1.80ead197f00b4p-1, -0x1.13e74c58cada8p-56, -0x1.dd6605fc45d9cp-1, -0x1.c64738e330662p+0,
    -0x1.4eedb7641eefbp+1, -0x1.bab7d256a5ac5p+1, -0x1.1340f6a496348p+2, -0x1.4926041dd992dp+2,
    -0x1.7f0b11971cf12p+2, -0x1.b4f01f10604f7p+2, -0x1.ead52c89a3adcp+2, -0x1.105d1d0173861p+3,
    -0x1.2b4fa3be15353p+3, -0x1.46422a7ab6e46p+3, -0x1.6134b13758938p+3, -0x1.7c2737f3fa42bp+3};
inline constexpr double kDerivP[8][16] = {
    {-0x1.a1a3ae8f2ec32p-2, -0x1.ae563cd92f775p-1, -0x1.0a18fa5c66630p+1, -0x1.f40a343bd4683p+1,
     -0x1.9b317b3f24e4ap+2, -0x1.348883c88f54ep+3, -0x1.b1f2ed019ec99p+3, -0x1.22f543b2e7da0p+4,
     -0x1.783d38415b7a2p+4, -0x1.d8d4d73fd78ebp+4, -0x1.225f394125201p+5, -0x1.5dfdd082981f6p+5,
     -0x1.9f46c1488d43ap+5, -0x1.e63a7412594e2p+5, -0x1.196c9b43a7a12p+6, -0x1.4291a1c343ea0p+6},
    {-0x1.0ffce387f38ddp-2, -0x1.ccbab14ed25d8p-1, -0x1.c3f284b1a88a9p+0, -0x1.4a06e4ed13cd9p+1,
     -0x1.b3bb8e7871869p+1, -0x1.0f21a9be5b78ep+2, -0x1.449ee15c8c1e8p+2, -0x1.7a3d8304a144bp+2,
     -0x1.aff0c7d7b6b7bp+2, -0x1.e5b16bd7a1d07p+2, -0x1.0dbd8a1ad2f36p+3, -0x1.28a583336d460p+3,
     -0x1.438fbde985f1cp+3, -0x1.5e7ba16ec4e6bp+3, -0x1.7968c41a5c7acp+3, -0x1.9456db0c14251p+3},
    {-0x1.8de873d392fedp-2, -0x1.c9c88373aa1f2p-2, -0x1.e7f16686ee609p-2, -0x1.f31f2814d3391p-2,
     -0x1.f879c30b2fb12p-2, -0x1.fb484a6d0cbe8p-2, -0x1.fcded04717f47p-2, -0x1.fdd3c29aedcdap-2,
     -0x1.fe6f38ec50b9cp-2, -0x1.fed63e73b60dcp-2, -0x1.ff1d082d6f751p-2, -0x1.ff4f2ff932357p-2,
     -0x1.ff73ab72cf64ep-2, -0x1.ff8ed0b95facfp-2, -0x1.ffa36abcd7058p-2, -0x1.ffb3536e4bc59p-2},
    {-0x1.384736aeb584dp-5, -0x1.1063b660e73a2p-6, -0x1.9b0a383ef6938p-8, -0x1.794173f073d33p-9,
     -0x1.7cd981cb436f1p-10, -0x1.a160cac7716f8p-11, -0x1.e9b8b0b5f7426p-12, -0x1.2ff5185e5676ep-12,
     -0x1.8b5d47f52e143p-13, -0x1.0b5f86458464fp-13, -0x1.75c268edaa50cp-14, -0x1.0cb08261f2434p-14,
     -0x1.8bc781ac20e48p-15, -0x1.29af274ff2019p-15, -0x1.c81f5c62db351p-16, -0x1.63297e9e4806ap-16},
    {0x1.51d1d00c63d57p-7, 0x1.2ab70d2c29c71p-8, 0x1.94b76e7b1b705p-10, 0x1.46c6771baaf1cp-11,
     0x1.21877a5a441e9p-12, 0x1.18278919b9d79p-13, 0x1.24b54d9588d36p-14, 0x1.4669258c84eb5p-15,
     0x1.809294afa41edp-16, 0x1.dab1ad106f7a1p-17, 0x1.30d2c099b5ff0p-17, 0x1.950b7be87bfa7p-18,
     0x1.152835b3861d0p-18, 0x1.852b0e92423c9p-19, 0x1.17759e6788294p-19, 0x1.9971f1ba0e903p-20},
    {-0x1.fb37510b2566fp-10, -0x1.169b08d057de2p-10, -0x1.6d5ebf5ceacc5p-12, -0x1.0b49e023b1678p-13,
     -0x1.a6b9a04dd9635p-15, -0x1.6cfc87ce087c7p-16, -0x1.55fb0556d3a8cp-17, -0x1.584769d1ed63ep-18,
     -0x1.70b915865da62p-19, -0x1.a0744a19f44f3p-20, -0x1.ec5e8019e36d2p-21, -0x1.2ecc97cb00a37p-21,
     -0x1.8177883b93938p-22, -0x1.f9b5580e3b12dp-23, -0x1.54a6bca46b583p-23, -0x1.d5dc8d20c9a1bp-24},
    {0x1.d5cc381c89d3ap-14, 0x1.983349c6ec1bep-13, 0x1.2ceead5a2d1dcp-14, 0x1.9f430aa899486p-16,
     0x1.2a82cc40473f9p-17, 0x1.d0a188a8e0141p-19, 0x1.88d45756376d8p-20, 0x1.6678fc27a3451p-21,
     0x1.5dfa1a298b7adp-22, 0x1.6a6b6dd6398f5p-23, 0x1.8b09fdf91760cp-24, 0x1.c24217e4eed8bp-25,
     0x1.0ad26c03dff15p-25, 0x1.474a6f29b80e3p-26, 0x1.9dd8dc94b8ec3p-27, 0x1.0ccf5bf009b61p-27},
    {0x1.94e735f9495a0p-15, -0x1.636dcb9fa777dp-16, -0x1.ac3175de99994p-17, -0x1.28bf12a4cf9a3p-18,
     -0x1.8e5f2ab94206ep-20, -0x1.1bb7d940b5efdp-21, -0x1.b52306290fbeep-23, -0x1.6c0692891147dp-24,
     -0x1.458c1b3f04bf8p-25, -0x1.36360cacba087p-26, -0x1.3898ba5b14e13p-27, -0x1.4adfb092b33b1p-28,
     -0x1.6db78791f5d37p-29, -0x1.a3ff730afd8c8p-30, -0x1.f2fffbcc56365p-31, -0x1.318c025b85680p-31},
};
// exp: 2^(j/16) rounded to nearest, its bit pattern minus j << 48 (adding k << 48, k = 16m + j,
// gives 2^m RN(2^(j/16)) exactly), and e^r ~ sum_i kExpP[i] r^i on |r| <= ln2/32.
inline constexpr unsigned long long kExpBits[16] = {0x3ff0000000000000ull, 0x3fefb5586cf9890full, 0x3fef72b83c7d517bull, 0x3fef387a6e756238ull,
    0x3fef06fe0a31b715ull, 0x3feedea64c123422ull, 0x3feebfdad5362a27ull, 0x3feeab07dd485429ull,
    0x3feea09e667f3bcdull, 0x3feea11473eb0187ull, 0x3feeace5422aa0dbull, 0x3feec49182a3f090ull,
    0x3feee89f995ad3adull, 0x3fef199bdd85529cull, 0x3fef5818dcfba487ull, 0x3fefa4afa2a490daull};
inline constexpr double kExpP[5] = {0x1.0000000000000p+0, 0x1.fffffffb12cf8p-1, 0x1.fffffffe5b9aep-2, 0x1.5557e5734c36ap-3,
    0x1.55570abe5482fp-5};

}  // namespace gelucheck::detail::erf32
