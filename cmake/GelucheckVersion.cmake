# The version of gelucheck and what a report records of the build that made it (docs/report.md,
# "Provenance"). The version has ONE home, the project(gelucheck VERSION ...) line of the top
# CMakeLists.txt; everything else reads it from the headers generated here:
#
#   <build>/generated/include/gelucheck/version.hpp  the version (configure time: it changes only
#                                                    with project(), which reconfigures)
#   <build>/generated/build_info/build_info.hpp      compiler, flags, build type (configure time)
#   <build>/generated/build_info/git_commit.hpp      `git describe --always --dirty` of the source
#                                                    tree, or "unknown": rewritten at EVERY build
#                                                    by the target gelucheck_git_commit, but only
#                                                    when it changed, so a new commit is never
#                                                    reported with the old hash and an unchanged
#                                                    one recompiles nothing.
#
# gelucheck::common carries the version header's directory (build interface); the build-info
# directory is private to the code that records provenance (reports/).
set(GELUCHECK_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in
               ${GELUCHECK_GENERATED_DIR}/include/gelucheck/version.hpp @ONLY)

# The flags every translation unit of the build gets: the user's and the build type's, then the
# project's own (warnings and the pinned floating point of GelucheckTargets.cmake; the path-prefix
# map is left out: it names where this machine keeps the sources).
string(TOUPPER "${CMAKE_BUILD_TYPE}" _gelucheck_bt)
set(_gelucheck_flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_gelucheck_bt}}")
string(JOIN " " _gelucheck_project_flags ${GELUCHECK_WARNINGS} ${GELUCHECK_FP_FLAGS})
if(GELUCHECK_SANITIZE)
  string(JOIN " " _gelucheck_project_flags ${_gelucheck_project_flags} ${GELUCHECK_SANITIZE_FLAGS})
endif()
string(STRIP "${_gelucheck_flags} ${_gelucheck_project_flags}" GELUCHECK_BUILD_FLAGS)
string(REGEX REPLACE "  +" " " GELUCHECK_BUILD_FLAGS "${GELUCHECK_BUILD_FLAGS}")
# A C string literal in build_info.hpp.
string(REPLACE "\\" "\\\\" GELUCHECK_BUILD_FLAGS "${GELUCHECK_BUILD_FLAGS}")
string(REPLACE "\"" "\\\"" GELUCHECK_BUILD_FLAGS "${GELUCHECK_BUILD_FLAGS}")
set(GELUCHECK_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
if(NOT GELUCHECK_BUILD_TYPE)
  set(GELUCHECK_BUILD_TYPE "none")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_info.hpp.in
               ${GELUCHECK_GENERATED_DIR}/build_info/build_info.hpp @ONLY)

set(_gelucheck_commit_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DOUTPUT=${GELUCHECK_GENERATED_DIR}/build_info/git_commit.hpp
    -P ${CMAKE_CURRENT_LIST_DIR}/GelucheckGitCommit.cmake)
# Once now, so that the header exists before the first build ...
execute_process(COMMAND ${CMAKE_COMMAND} ${_gelucheck_commit_args})
# ... and at every build (a custom target is always out of date; the script rewrites the header
# only when the description changed).
add_custom_target(gelucheck_git_commit
  COMMAND ${CMAKE_COMMAND} ${_gelucheck_commit_args}
  BYPRODUCTS ${GELUCHECK_GENERATED_DIR}/build_info/git_commit.hpp
  COMMENT "" VERBATIM)
