# Project-wide compile settings, applied target by target.
#
# Floating point is pinned: no contraction of a*b+c into an FMA (results must not change with the
# compiler's mood; where an FMA is wanted the code calls std::fma), no fast-math, and x86-64's SSE
# arithmetic (no excess precision for double/float; long double is the x87 80-bit format).
set(GELUCHECK_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
set(GELUCHECK_FP_FLAGS -ffp-contract=off -fno-fast-math)

set(GELUCHECK_SANITIZE_FLAGS -fsanitize=address,undefined)

# Builds tgt with the sanitizers when GELUCHECK_SANITIZE is on (also for targets, such as the C
# client of the shared library, that do not take the project's warning flags).
function(gelucheck_target_sanitize tgt)
  if(GELUCHECK_SANITIZE)
    target_compile_options(${tgt} PRIVATE ${GELUCHECK_SANITIZE_FLAGS} -fno-omit-frame-pointer
                                          -fno-sanitize-recover=undefined)
    target_link_options(${tgt} PRIVATE ${GELUCHECK_SANITIZE_FLAGS})
  endif()
endfunction()

function(gelucheck_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE ${GELUCHECK_WARNINGS} ${GELUCHECK_FP_FLAGS})
  gelucheck_target_sanitize(${tgt})
endfunction()

# gelucheck_add_test(NAME name SOURCES ... LIBS ... [LABELS ...] [ARGS ...] [TIMEOUT s])
# One GoogleTest executable registered as one CTest test (fast suites) with the project's flags.
function(gelucheck_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  gelucheck_target_defaults(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${T_ARGS})
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
  if(T_TIMEOUT)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()
