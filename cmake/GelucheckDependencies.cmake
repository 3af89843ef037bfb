# Where gelucheck finds what scripts/debian-packages.txt installs. Nothing is downloaded.
find_package(PkgConfig REQUIRED)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)
pkg_check_modules(GMP REQUIRED IMPORTED_TARGET gmp)
find_package(Boost 1.74 REQUIRED)                  # header-only parts: Math, Multiprecision
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json 3.11 REQUIRED CONFIG)
find_package(fmt REQUIRED CONFIG)
find_package(Threads REQUIRED)
if(GELUCHECK_BUILD_TESTS)
  find_package(GTest REQUIRED CONFIG)
  find_package(rapidcheck REQUIRED CONFIG)
endif()
if(GELUCHECK_BUILD_BENCH)
  find_package(benchmark REQUIRED CONFIG)
endif()
# The Python that runs the adapters under adapters/python (numpy; PyTorch for the torch peer):
# Debian's /usr/bin/python3, whose python3-numpy and python3-torch packages these are, before any
# other python3 on PATH (a virtualenv or pyenv interpreter has its own, usually empty, site).
find_program(GELUCHECK_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT GELUCHECK_PYTHON)
  find_program(GELUCHECK_PYTHON NAMES python3)
endif()
# The Node.js that runs adapters/onnxruntime (the onnxruntime-node package's binding): the one that
# came with npm (scripts/debian-packages.txt), found on PATH.
find_program(GELUCHECK_NODE NAMES node nodejs)
