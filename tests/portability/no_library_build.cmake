# cmake -DSOURCE_DIR=<repo> -DBUILD_DIR=<dir> -DGENERATOR=... -DC_COMPILER=... -DCXX_COMPILER=...
#       [-DLAUNCHER=<the parent build's compiler launcher>] -P no_library_build.cmake
# Configures gelucheck with -DGELUCHECK_WITH_LIBRARY=OFF in BUILD_DIR (kept: later runs rebuild
# only what changed), builds all of it (the reference, the subjects, the report, the property
# suite, the CLI and their tests), checks that nothing of src/ was configured and that no program
# of it imports a long double function of libm, and runs what compiles differently without the
# library: the built-in subjects (the reference, the broken variants wrapping it) under the
# property suite and its bite test, and `gelucheck check` and `eval` as programs. The other tests
# of that build are the same code as this build's and run here already. Any failing step fails
# the test.
foreach(v SOURCE_DIR BUILD_DIR GENERATOR C_COMPILER CXX_COMPILER)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "no_library_build.cmake: -D${v}=... is required")
  endif()
endforeach()
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "no_library_build: ${what} failed (exit ${rc}):\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(launch "")
if(LAUNCHER)
  set(launch -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER})
endif()
step("configuring" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -G ${GENERATOR}
     -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} ${launch}
     -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGELUCHECK_WITH_LIBRARY=OFF -DGELUCHECK_BUILD_BENCH=OFF
     -DGELUCHECK_PROP_CASES=200)  # the reference's run: a tenth, 20 cases per property
if(NOT out MATCHES "built without the library under test")
  message(FATAL_ERROR "no_library_build: the configuration does not say it is without the library:\n${out}")
endif()
# Only what the checks below run (the CLI, the subject host, the property suite and its bite
# test): building every test program of that configuration would double the default tier's cost.
step("building" ${CMAKE_COMMAND} --build ${BUILD_DIR} -j 2 --target gelucheck gelucheck-subject-host
     gelucheck_proptests gelucheck_proptests_bite)

if(EXISTS ${BUILD_DIR}/src)
  message(FATAL_ERROR "no_library_build: ${BUILD_DIR}/src exists: src/ was configured")
endif()
# No program calls libm's long double functions (what the library's accuracy rests on).
foreach(exe cli/gelucheck proptests/gelucheck_proptests subjects/gelucheck-subject-host)
  step("nm ${exe}" nm -D --undefined-only ${BUILD_DIR}/${exe})
  if(out MATCHES "(^|\n| )(exp|expm1|erf|erfc|tanh|log|log1p|pow|sqrt|fabs|fma|ldexp|frexp)l(@|\n)")
    message(FATAL_ERROR "no_library_build: ${exe} calls a long double libm function:\n${out}")
  endif()
endforeach()

# The property suite on the reference, and the bite test: every broken variant (the reference
# with one mistake) caught, the reference passing. 5 cases per property and variant catch each
# (each variant is caught by several properties at that count; the main build's bite test runs
# 25 on the library's variants).
set(ENV{GELUCHECK_BITE_RC_PARAMS} "seed=20240607 max_success=5 noshrink=1")
step("the property suite" ${CMAKE_COMMAND} -E chdir ${BUILD_DIR} ctest -L properties -LE long -j 2
     --output-on-failure)
string(REGEX MATCH "[0-9]+% tests passed[^\n]*" summary "${out}")
message(STATUS "no_library_build: property suite: ${summary}")

# The CLI and the report: the reference meets its claim (exit 0), broken:away:3 (the reference 3
# ulps off) breaks it (exit 4, docs/cli.md), and accurate is refused as not built.
set(gelucheck ${BUILD_DIR}/cli/gelucheck)
foreach(case "reference;0" "broken:away:3;4")
  list(GET case 0 spec)
  list(GET case 1 want)
  execute_process(COMMAND ${gelucheck} check ${spec} --formats f64 --points 2000 --no-properties
                          --no-plots --quiet --gate --out ${BUILD_DIR}/check-out
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "no_library_build: gelucheck check ${spec} exited ${rc}, not ${want}:\n${out}")
  endif()
endforeach()
file(REMOVE_RECURSE ${BUILD_DIR}/check-out)
file(WRITE ${BUILD_DIR}/one.txt "1\n")
execute_process(COMMAND ${gelucheck} eval --subject accurate INPUT_FILE ${BUILD_DIR}/one.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0 OR NOT out MATCHES "built without the library under test")
  message(FATAL_ERROR "no_library_build: eval --subject accurate (exit ${rc}) does not say the "
                      "library is not built:\n${out}")
endif()
message(STATUS "no_library_build: gelucheck check and eval as expected")
