# Project-wide compile settings, applied target by target.
#
# Floating point is pinned: no contraction of a*b+c into an FMA (results must not change with the
# compiler's mood; where an FMA is wanted the code calls std::fma), no fast-math, and x86-64's SSE
# arithmetic (no excess precision for double/float; long double is the x87 80-bit format).
set(GELUCHECK_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
if(GELUCHECK_WERROR)
  list(APPEND GELUCHECK_WARNINGS -Werror)
endif()
set(GELUCHECK_FP_FLAGS -ffp-contract=off -fno-fast-math)

set(GELUCHECK_SANITIZE_FLAGS -fsanitize=address,undefined)

include(GoogleTest)  # gtest_discover_tests

# Builds tgt with the sanitizers when GELUCHECK_SANITIZE is on (also for targets, such as the C
# client of the shared library, that do not take the project's warning flags). A fuzzing build
# (GELUCHECK_FUZZ, clang) instruments every target for libFuzzer's coverage as well.
function(gelucheck_target_sanitize tgt)
  if(GELUCHECK_FUZZ)
    target_compile_options(${tgt} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                                          -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(${tgt} PRIVATE -fsanitize=address,undefined)
  elseif(GELUCHECK_SANITIZE)
    target_compile_options(${tgt} PRIVATE ${GELUCHECK_SANITIZE_FLAGS} -fno-omit-frame-pointer
                                          -fno-sanitize-recover=undefined)
    target_link_options(${tgt} PRIVATE ${GELUCHECK_SANITIZE_FLAGS})
  endif()
endfunction()

# Source paths in __FILE__ (assertion and RapidCheck messages, which reports quote) are relative
# to the repository, not to where this machine keeps it.
set(GELUCHECK_PATH_FLAGS -ffile-prefix-map=${PROJECT_SOURCE_DIR}/=)

function(gelucheck_target_defaults tgt)
  target_compile_options(${tgt} PRIVATE ${GELUCHECK_WARNINGS} ${GELUCHECK_FP_FLAGS} ${GELUCHECK_PATH_FLAGS})
  gelucheck_target_sanitize(${tgt})
endfunction()

# gelucheck_add_test(NAME name SOURCES ... LIBS ... [LABELS ...] [ARGS ...] [FILTER pattern]
#                    [TIMEOUT s])
# One GoogleTest executable with the project's flags, each of its tests its own CTest test named
# NAME.Suite.Test (gtest_discover_tests, which lists them when CTest starts: dashboards and
# `ctest -R` see single tests). LABELS (the layer: docs/architecture.md, "Tests and labels") and
# TIMEOUT apply to each; ARGS are passed to each; FILTER (a --gtest_filter pattern) restricts
# which of the executable's tests are registered.
function(gelucheck_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT;FILTER" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  gelucheck_target_defaults(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  gelucheck_discover_tests(${T_NAME} PREFIX ${T_NAME} LABELS ${T_LABELS} ARGS ${T_ARGS}
                           FILTER "${T_FILTER}" TIMEOUT "${T_TIMEOUT}")
endfunction()

# gelucheck_discover_tests(target PREFIX p [LABELS ...] [ARGS ...] [FILTER pattern]
#                          [TIMEOUT s] [ENVIRONMENT VAR=value ...])
# Registers each GoogleTest test of an executable target as the CTest test p.Suite.Test (the
# property suite calls it once per subject it is run on, with a prefix of its own).
function(gelucheck_discover_tests tgt)
  cmake_parse_arguments(D "" "PREFIX;TIMEOUT;FILTER" "LABELS;ARGS;ENVIRONMENT" ${ARGN})
  set(filter "")
  if(D_FILTER)
    set(filter TEST_FILTER "${D_FILTER}")
  endif()
  # Listed when CTest starts (PRE_TEST), not after each link: a build does not run the tests'
  # executables, and a listing that fails is a failing `ctest`, not a failing build.
  gtest_discover_tests(${tgt} TEST_PREFIX "${D_PREFIX}." EXTRA_ARGS ${D_ARGS} ${filter}
                       TEST_LIST ${D_PREFIX}_TESTS DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60)
  # The properties are set by a script CTest reads after the listing (a list-valued property,
  # such as two labels, does not survive gtest_discover_tests' PROPERTIES).
  set(props "")
  foreach(p LABELS TIMEOUT ENVIRONMENT)
    if(D_${p})
      string(APPEND props " ${p} [==[${D_${p}}]==]")
    endif()
  endforeach()
  if(props)
    set(script ${CMAKE_CURRENT_BINARY_DIR}/${D_PREFIX}_properties.cmake)
    file(WRITE ${script} "if(${D_PREFIX}_TESTS)\n"
                         "  set_tests_properties(\${${D_PREFIX}_TESTS} PROPERTIES${props})\n"
                         "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
  endif()
endfunction()

# gelucheck_add_fuzzer(NAME name SOURCES ... LIBS ...)
# One libFuzzer target, NAME_fuzzer, from SOURCES defining LLVMFuzzerTestOneInput; its
# starting corpus is fuzz/corpus/NAME/. With GELUCHECK_FUZZ (a clang build) it is the fuzzer itself
# (-fsanitize=fuzzer,address,undefined), listed for fuzz/run_fuzzers.cmake. In every build with
# tests it is also NAME_fuzz_replay, the same sources with a plain main (fuzz/replay_main.cpp)
# that runs each file of the starting corpus once: a CTest test, so that any compiler builds the
# target and replays its corpus.
function(gelucheck_add_fuzzer)
  cmake_parse_arguments(F "" "NAME" "SOURCES;LIBS;INCLUDES" ${ARGN})
  set(corpus ${PROJECT_SOURCE_DIR}/fuzz/corpus/${F_NAME})
  if(NOT IS_DIRECTORY ${corpus})
    message(FATAL_ERROR "gelucheck_add_fuzzer(${F_NAME}): no starting corpus at ${corpus}")
  endif()
  if(GELUCHECK_FUZZ)
    add_executable(${F_NAME}_fuzzer ${F_SOURCES})
    target_compile_options(${F_NAME}_fuzzer PRIVATE ${GELUCHECK_WARNINGS} ${GELUCHECK_FP_FLAGS}
                           -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
    target_link_options(${F_NAME}_fuzzer PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${F_NAME}_fuzzer PRIVATE ${F_LIBS})
    target_include_directories(${F_NAME}_fuzzer PRIVATE ${F_INCLUDES})
    set_property(GLOBAL APPEND PROPERTY GELUCHECK_FUZZERS
                 "${F_NAME}|$<TARGET_FILE:${F_NAME}_fuzzer>|${corpus}")
    set_property(GLOBAL APPEND PROPERTY GELUCHECK_FUZZER_TARGETS ${F_NAME}_fuzzer)
  elseif(GELUCHECK_BUILD_TESTS)
    add_executable(${F_NAME}_fuzz_replay ${F_SOURCES} ${PROJECT_SOURCE_DIR}/fuzz/replay_main.cpp)
    gelucheck_target_defaults(${F_NAME}_fuzz_replay)
    target_link_libraries(${F_NAME}_fuzz_replay PRIVATE ${F_LIBS})
    target_include_directories(${F_NAME}_fuzz_replay PRIVATE ${F_INCLUDES})
    add_test(NAME ${F_NAME}_fuzz_replay COMMAND ${F_NAME}_fuzz_replay ${corpus})
    set_tests_properties(${F_NAME}_fuzz_replay PROPERTIES LABELS fuzz TIMEOUT 120)
  endif()
endfunction()

# Precompiled headers: the third-party headers that every file of a target includes (JSON,
# RapidCheck, GoogleTest, fmt, CLI11) are parsed once per target instead of once per file, which
# is most of what building the main job costs. GELUCHECK_PCH=OFF and GELUCHECK_UNITY_BUILD=OFF
# build without (e.g. to check that each file includes what it uses).
option(GELUCHECK_PCH "Precompile the third-party headers every file of a target includes" ON)
function(gelucheck_precompile tgt)
  if(GELUCHECK_PCH)
    target_precompile_headers(${tgt} PRIVATE ${ARGN})
  endif()
endfunction()

# Unity builds: the files of a target compiled GELUCHECK_UNITY_BATCH at a time as one translation
# unit, so that the headers they share (ours and the third-party templates they instantiate) are
# compiled once per batch, not once per file. For the targets the main job builds whose files
# each take seconds (the command line, checking/, reports/, the property suite). Measured on 2
# cores (scripts/main.sh's build, Ninja, -g1): 109 s without, 87 s at 3 files a batch, 79 s at 5,
# 75 s at 8. A file of such a target must not give a name of its own (anonymous namespace, static)
# that another file of the target gives too.
option(GELUCHECK_UNITY_BUILD "Compile the main job's heaviest targets a batch of files at a time" ON)
set(GELUCHECK_UNITY_BATCH 8 CACHE STRING "Files per translation unit of a unity build")
function(gelucheck_unity_build tgt)
  if(GELUCHECK_UNITY_BUILD)
    set_target_properties(${tgt} PROPERTIES UNITY_BUILD ON
                                            UNITY_BUILD_BATCH_SIZE ${GELUCHECK_UNITY_BATCH})
  endif()
endfunction()
