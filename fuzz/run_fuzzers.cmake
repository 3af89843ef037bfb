# The default tier's fuzzing run (the CTest test `fuzzing`, fuzz/CMakeLists.txt):
#   cmake -DSOURCE_DIR=<repo> -DBUILD_DIR=<dir> -DSECONDS=<s> -P fuzz/run_fuzzers.cmake
# configures a clang build with -DGELUCHECK_FUZZ=ON in BUILD_DIR (kept, so later runs rebuild
# only what changed), builds the fuzzers (target gelucheck_fuzzers, nothing else), and runs each
# for SECONDS on its starting corpus plus the corpus it grew in earlier runs (BUILD_DIR/runs/<name>/
# corpus; the starting corpus in the repository is only read). Any crash, sanitizer report, timeout
# of one input or memory blow-up fails the test, naming the input libFuzzer saved.
foreach(v SOURCE_DIR BUILD_DIR SECONDS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_fuzzers.cmake: -D${v}=... is required")
  endif()
endforeach()

find_program(CLANGXX NAMES clang++-14 clang++)
find_program(CLANG NAMES clang-14 clang)
if(NOT CLANGXX OR NOT CLANG)
  message(FATAL_ERROR "fuzzing: clang is missing (install clang-14 and libclang-rt-14-dev: "
                      "scripts/debian-packages.txt)")
endif()

execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -DCMAKE_CXX_COMPILER=${CLANGXX}
          -DCMAKE_C_COMPILER=${CLANG} -DGELUCHECK_FUZZ=ON -DGELUCHECK_BUILD_TESTS=OFF
          -DGELUCHECK_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzing: configuring the clang build in ${BUILD_DIR} failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target gelucheck_fuzzers -j 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzing: building the fuzzers failed:\n${out}")
endif()

file(STRINGS ${BUILD_DIR}/fuzzers.txt fuzzers)
if(NOT fuzzers)
  message(FATAL_ERROR "fuzzing: ${BUILD_DIR}/fuzzers.txt lists no fuzzer")
endif()
set(failed "")
foreach(line IN LISTS fuzzers)
  string(REPLACE "|" ";" fields "${line}")
  list(GET fields 0 name)
  list(GET fields 1 exe)
  list(GET fields 2 given)
  set(run ${BUILD_DIR}/runs/${name})
  file(MAKE_DIRECTORY ${run}/corpus ${run}/artifacts)
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a blow-up is a failure too.
  execute_process(
    COMMAND ${exe} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
            -print_final_stats=1 -artifact_prefix=${run}/artifacts/ ${run}/corpus ${given}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${out}")
  string(REGEX MATCH "stat::new_units_added: *[0-9]+" added "${out}")
  if(rc EQUAL 0)
    message(STATUS "fuzzer ${name}: ${SECONDS} s, ${runs}, ${added}")
  else()
    string(LENGTH "${out}" len)
    math(EXPR from "${len} - 4000")
    if(from LESS 0)
      set(from 0)
    endif()
    string(SUBSTRING "${out}" ${from} -1 tail)
    message(SEND_ERROR "fuzzer ${name} failed (exit status ${rc}); the input is saved in "
                       "${run}/artifacts/ (replay: ${exe} <file>). Its output ends:\n${tail}")
    list(APPEND failed ${name})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "fuzzing: failed: ${failed}")
endif()
